// Writes a random-weight BERT-shaped sentence-embedding model folder that
// transformers.js loads offline (config.json, tokenizer.json,
// tokenizer_config.json, onnx/model.onnx): a WordPiece tokenizer over a small
// generated vocabulary and an ONNX encoder (token embeddings, then `layers`
// single-head self-attention + feed-forward blocks with layer norms, masked
// by attention_mask) whose output is `last_hidden_state`. No model hub is
// reachable here, so the tests and the benchmark build their models with this:
// layers=1, hidden=32 for tests; layers=6, hidden=384, intermediate=1536 is
// MiniLM-shaped (the compute of all-MiniLM-L6-v2, single-headed).
// The ONNX protobuf is encoded by hand (a few message types).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// --- protobuf encoding -------------------------------------------------------
function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, value: number | bigint) => Buffer.from([...key(field, 0), ...varint(value)]);
const bytes = (field: number, value: Buffer) => Buffer.concat([Buffer.from([...key(field, 2), ...varint(value.length)]), value]);
const str = (field: number, value: string) => bytes(field, Buffer.from(value, 'utf8'));
const msg = (field: number, ...parts: Buffer[]) => bytes(field, Buffer.concat(parts));

const FLOAT = 1;
const INT64 = 7;

function tensor(field: number, name: string, dims: number[], type: number, raw: Buffer): Buffer {
  return msg(field, ...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw));
}

function floats(count: number, scale: number, random: () => number): Buffer {
  const out = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i++) out.writeFloatLE((random() * 2 - 1) * scale, i * 4);
  return out;
}

function constant(values: number[], type: number): Buffer {
  const out = Buffer.alloc(values.length * (type === INT64 ? 8 : 4));
  values.forEach((v, i) => (type === INT64 ? out.writeBigInt64LE(BigInt(v), i * 8) : out.writeFloatLE(v, i * 4)));
  return out;
}

function node(op: string, inputs: string[], outputs: string[], attributes: Buffer[] = []): Buffer {
  return msg(1, ...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(3, `${op}_${outputs[0]}`), str(4, op), ...attributes);
}
const attrInt = (name: string, value: number) => msg(5, str(1, name), int(20, 2), int(3, value));
const attrInts = (name: string, values: number[]) => msg(5, str(1, name), int(20, 7), ...values.map((v) => int(8, v)));
const attrFloat = (name: string, value: number) => {
  const f = Buffer.alloc(5);
  f[0] = (2 << 3) | 5;
  f.writeFloatLE(value, 1);
  return msg(5, str(1, name), int(20, 1), f);
};

function valueInfo(field: number, name: string, type: number, dims: (number | string)[]): Buffer {
  const shape = dims.map((d) => msg(1, typeof d === 'number' ? int(1, d) : str(2, d)));
  return msg(field, str(1, name), msg(2, msg(1, int(1, type), msg(2, ...shape))));
}

// --- the model ---------------------------------------------------------------
export interface ModelShape {
  layers: number;
  hidden: number;
  intermediate: number;
  /** Extra generated vocabulary entries (besides letters and the built-in words). */
  vocabPadding?: number;
  /** Extra whole words in the vocabulary (a benchmark's corpus words tokenize as one token each). */
  words?: string[];
  seed?: number;
}

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('the of and to in is that it for was on are as with be by this at from or have an not which but they you were has been can will '
  + 'pump pumps valve valves seal bearing grease flow pressure station north south maintenance manual inspection safety motor power water '
  + 'document chunk search subject number paragraph text words policy travel turbine generator report revenue region').split(' ');

export function vocabulary(padding = 0, words: string[] = []): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
  const punctuation = '.,;:!?-()[]{}"\'/\\@#$%&*+=<>_|~`^'.split('');
  const vocab = [...new Set(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...letters, ...letters.map((l) => `##${l}`), ...punctuation, ...WORDS, ...words])];
  for (let i = 0; i < padding; i++) vocab.push(`tok${i}`);
  return vocab;
}

function onnxModel(shape: ModelShape, vocabSize: number): Buffer {
  const random = mulberry32(shape.seed ?? 42);
  const { hidden: H, intermediate: I } = shape;
  const nodes: Buffer[] = [];
  const inits: Buffer[] = [];
  inits.push(tensor(5, 'word_embeddings', [vocabSize, H], FLOAT, floats(vocabSize * H, 0.5, random)));
  inits.push(tensor(5, 'axes_last', [1], INT64, constant([2], INT64)));
  inits.push(tensor(5, 'axes_mid', [1], INT64, constant([1], INT64)));
  inits.push(tensor(5, 'one', [], FLOAT, constant([1], FLOAT)));
  inits.push(tensor(5, 'neg_big', [], FLOAT, constant([-10000], FLOAT)));
  inits.push(tensor(5, 'scale', [], FLOAT, constant([1 / Math.sqrt(H)], FLOAT)));
  nodes.push(node('Gather', ['word_embeddings', 'input_ids'], ['h0'], [attrInt('axis', 0)]));
  nodes.push(node('Cast', ['attention_mask'], ['mask_f'], [attrInt('to', FLOAT)]));
  // Additive mask for attention scores: 0 where attended, -10000 on padding.
  nodes.push(node('Sub', ['one', 'mask_f'], ['mask_inv']));
  nodes.push(node('Mul', ['mask_inv', 'neg_big'], ['mask_bias2']));
  nodes.push(node('Unsqueeze', ['mask_bias2', 'axes_mid'], ['mask_bias']));
  let h = 'h0';
  for (let l = 0; l < shape.layers; l++) {
    const p = (name: string) => `l${l}_${name}`;
    for (const [name, rows, cols] of [['wq', H, H], ['wk', H, H], ['wv', H, H], ['wo', H, H], ['w1', H, I], ['w2', I, H]] as const) {
      inits.push(tensor(5, p(name), [rows, cols], FLOAT, floats(rows * cols, 1 / Math.sqrt(rows), random)));
    }
    for (const n of ['ln1', 'ln2']) {
      inits.push(tensor(5, p(`${n}_g`), [H], FLOAT, constant(new Array(H).fill(1), FLOAT)));
      inits.push(tensor(5, p(`${n}_b`), [H], FLOAT, constant(new Array(H).fill(0), FLOAT)));
    }
    nodes.push(node('MatMul', [h, p('wq')], [p('q')]));
    nodes.push(node('MatMul', [h, p('wk')], [p('k')]));
    nodes.push(node('MatMul', [h, p('wv')], [p('v')]));
    nodes.push(node('Transpose', [p('k')], [p('kt')], [attrInts('perm', [0, 2, 1])]));
    nodes.push(node('MatMul', [p('q'), p('kt')], [p('scores')]));
    nodes.push(node('Mul', [p('scores'), 'scale'], [p('scaled')]));
    nodes.push(node('Add', [p('scaled'), 'mask_bias'], [p('masked')]));
    nodes.push(node('Softmax', [p('masked')], [p('probs')], [attrInt('axis', -1)]));
    nodes.push(node('MatMul', [p('probs'), p('v')], [p('ctx')]));
    nodes.push(node('MatMul', [p('ctx'), p('wo')], [p('attn')]));
    nodes.push(node('Add', [h, p('attn')], [p('res1')]));
    nodes.push(node('LayerNormalization', [p('res1'), p('ln1_g'), p('ln1_b')], [p('h1')], [attrInt('axis', -1), attrFloat('epsilon', 1e-12)]));
    nodes.push(node('MatMul', [p('h1'), p('w1')], [p('up')]));
    nodes.push(node('Relu', [p('up')], [p('act')]));
    nodes.push(node('MatMul', [p('act'), p('w2')], [p('down')]));
    nodes.push(node('Add', [p('h1'), p('down')], [p('res2')]));
    nodes.push(node('LayerNormalization', [p('res2'), p('ln2_g'), p('ln2_b')], [p('h2')], [attrInt('axis', -1), attrFloat('epsilon', 1e-12)]));
    h = p('h2');
  }
  nodes.push(node('Unsqueeze', ['mask_f', 'axes_last'], ['mask_3d']));
  nodes.push(node('Mul', [h, 'mask_3d'], ['last_hidden_state']));
  const graph = msg(7,
    ...nodes,
    str(2, 'bert_shaped'),
    ...inits,
    valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    valueInfo(11, 'attention_mask', INT64, ['batch', 'sequence']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', H]),
  );
  return Buffer.concat([int(1, 8), str(2, 'platform-tests'), graph, msg(8, str(1, ''), int(2, 17))]);
}

function tokenizerJson(vocab: string[]) {
  const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: special.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
    },
  };
}

/** Writes the model folder; returns its path. */
export async function writeModel(folder: string, shape: ModelShape): Promise<string> {
  const vocab = vocabulary(shape.vocabPadding ?? 0, shape.words);
  await mkdir(path.join(folder, 'onnx'), { recursive: true });
  await writeFile(path.join(folder, 'config.json'), JSON.stringify({
    model_type: 'bert', architectures: ['BertModel'], hidden_size: shape.hidden, intermediate_size: shape.intermediate,
    num_hidden_layers: shape.layers, num_attention_heads: 1, vocab_size: vocab.length, max_position_embeddings: 512,
  }));
  await writeFile(path.join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  await writeFile(path.join(folder, 'tokenizer_config.json'), JSON.stringify({
    tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512,
    cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]',
  }));
  await writeFile(path.join(folder, 'onnx', 'model.onnx'), onnxModel(shape, vocab.length));
  return folder;
}
