// The YAML reader's worker thread: turns a YAML body into JSON values
// (yaml-json.ts) off the server's event loop and answers each job by id:
// the values, or the refusal's message and code. A failure of the library
// on some input (its recursion on absurd nesting) is answered by its name
// only: its message may quote the body.
import { parentPort } from 'node:worker_threads';
import { YamlRefusal, yamlToJson } from './yaml-json.ts';

export interface YamlJob {
  id: number;
  text: string;
  maxDocuments: number;
}

export type YamlAnswer =
  | { id: number; values: unknown[] }
  | { id: number; refusal: { message: string; code: string } }
  | { id: number; failure: string };

parentPort!.on('message', ({ id, text, maxDocuments }: YamlJob) => {
  let answer: YamlAnswer;
  try {
    answer = { id, values: yamlToJson(text, maxDocuments) };
  } catch (error) {
    answer = error instanceof YamlRefusal
      ? { id, refusal: { message: error.message, code: error.code } }
      : { id, failure: error instanceof Error ? error.name : 'Error' };
  }
  parentPort!.postMessage(answer);
});
