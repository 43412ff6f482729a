// What both Form.io chunks set up before rendering: its evaluator switched
// off (no `new Function`: the page's CSP has no 'unsafe-eval', and a form is
// data, never code, as on the server).
export function noEval(formio: unknown): void {
  const f = formio as { Evaluator?: { noeval: boolean } };
  if (f.Evaluator) f.Evaluator.noeval = true;
}
