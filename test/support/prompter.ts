// A Prompter that answers from a script, for run-function tests of commands that ask questions
// (gw init, gw config set). Each answer is matched to the question it expects by a pattern on the
// message, so a test fails loudly if the command asks something else, in another order, or more.
import type { PromptChoice, Prompter, Validate } from '../../src/output/prompter.js';
import { interrupted } from '../../src/errors.js';

export type Answer =
  | { ask: RegExp; kind?: 'input' | 'secret' | 'confirm' | 'select'; answer: string | boolean }
  /** Ctrl-C at this question. */
  | { ask: RegExp; interrupt: true };

export interface Asked {
  kind: 'input' | 'secret' | 'confirm' | 'select';
  message: string;
  /** What the validation said of the answer given (true, or its message). */
  validation?: true | string;
  choices?: string[];
  default?: unknown;
}

export class ScriptedPrompter implements Prompter {
  readonly asked: Asked[] = [];
  readonly #answers: Answer[];

  constructor(answers: Answer[]) {
    this.#answers = [...answers];
  }

  /** Every scripted answer was used. */
  get done(): boolean {
    return this.#answers.length === 0;
  }

  #next(kind: Asked['kind'], message: string): string | boolean {
    const next = this.#answers.shift();
    if (next === undefined) throw new Error(`scripted prompter: unexpected ${kind} question "${message}"`);
    if (!next.ask.test(message)) throw new Error(`scripted prompter: expected a question matching ${next.ask}, got ${kind} "${message}"`);
    if ('interrupt' in next) throw interrupted();
    if (next.kind !== undefined && next.kind !== kind)
      throw new Error(`scripted prompter: "${message}" is a ${kind} question, the script has a ${next.kind} answer`);
    return next.answer;
  }

  async #validated(kind: 'input' | 'secret', message: string, validate: Validate | undefined, fallback?: string): Promise<string> {
    // A validation failure asks again, as the terminal prompt does: the script gives the next answer.
    for (;;) {
      const raw = this.#next(kind, message);
      const answer = raw === '' && fallback !== undefined ? fallback : String(raw);
      const validation = validate === undefined ? true : await validate(answer);
      this.asked.push({ kind, message, validation, ...(fallback !== undefined && { default: fallback }) });
      if (validation === true) return answer;
    }
  }

  input(q: { message: string; default?: string; validate?: Validate }): Promise<string> {
    return this.#validated('input', q.message, q.validate, q.default);
  }

  secret(q: { message: string; validate?: Validate }): Promise<string> {
    return this.#validated('secret', q.message, q.validate);
  }

  async select<T>(q: { message: string; choices: ReadonlyArray<PromptChoice<T>>; default?: T }): Promise<T> {
    const answer = this.#next('select', q.message);
    this.asked.push({ kind: 'select', message: q.message, choices: q.choices.map((c) => c.name), default: q.default });
    const choice = q.choices.find((c) => String(c.value) === String(answer) || c.name === answer);
    if (choice === undefined) throw new Error(`scripted prompter: no choice "${String(answer)}" in ${q.choices.map((c) => String(c.value)).join(', ')}`);
    return choice.value;
  }

  async confirm(q: { message: string; default?: boolean }): Promise<boolean> {
    const answer = this.#next('confirm', q.message);
    this.asked.push({ kind: 'confirm', message: q.message, default: q.default });
    return answer === true || answer === 'yes' || answer === 'y';
  }
}
