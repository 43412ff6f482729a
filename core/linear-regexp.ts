// Regular expressions written by tenants (JSON Schema `pattern`s of imported
// functions and custom event types, import path globs) run on RE2 (re2js, a
// pure-JavaScript port): matching time is linear in the input, whatever the
// pattern, so no tenant can stall the event loop with a backtracking pattern
// such as ^(a+)+$. RE2 has no backreferences or lookaround; such a pattern,
// or one longer than MAX_PATTERN_LENGTH (compiling is linear in its size, but
// a huge one still costs), cannot be compiled and the caller decides what to
// do (the JSON Schema factory drops it with a warning).
import { RE2JS } from 're2js';

/** The longest pattern source compiled. */
export const MAX_PATTERN_LENGTH = 4096;

export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Compiles a JavaScript-syntax pattern (no flags) for RE2, or throws an Error
 * saying why it cannot run in linear time.
 */
export function compileLinear(pattern: string): LinearRegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new Error(`the pattern is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`);
  }
  let compiled: RE2JS;
  try {
    // translateRegExp maps JavaScript-only syntax (\u0041, [^], (?<name>…)) to RE2's.
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (err) {
    throw new Error(`the pattern cannot run on a linear-time engine (${(err as Error).message})`);
  }
  return {
    test: (text: string) => compiled.test(text),
    toString: () => `/${pattern}/`,
  };
}

/** Why a pattern cannot run in linear time, or undefined when it can. */
export function linearPatternProblem(pattern: string): string | undefined {
  try {
    compileLinear(pattern);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
