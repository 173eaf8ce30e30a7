// Questions to a person. Commands ask through a Prompter that IOStreams hands them, never through
// process.stdin: on a terminal it is TerminalPrompter (@inquirer's prompts, reading keys on stdin and
// drawing on stderr, so stdout keeps only the command's data); tests give a scripted one
// (test/support/prompter.ts). Ctrl-C while a question is open is exit 130, with nothing written.
import { interrupted } from '../errors.js';
import type { InStream, OutStream } from './streams.js';

export interface PromptChoice<T> {
  name: string;
  value: T;
  description?: string;
}

/** A validation: true, or the message to show before asking again. */
export type Validate = (value: string) => true | string | Promise<true | string>;

export interface Prompter {
  /** A line of text; `default` is taken on an empty answer. */
  input(question: { message: string; default?: string; validate?: Validate }): Promise<string>;
  /** A secret (a key): nothing is echoed while it is typed. */
  secret(question: { message: string; validate?: Validate }): Promise<string>;
  /** One of `choices`. */
  select<T>(question: { message: string; choices: ReadonlyArray<PromptChoice<T>>; default?: T }): Promise<T>;
  confirm(question: { message: string; default?: boolean }): Promise<boolean>;
}

const identity = (text: string): string => text;

/** What @inquirer's prompts are given besides their question. */
interface PromptContext {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  clearPromptOnDone: false;
  signal: AbortSignal;
}

/**
 * The terminal's prompts, from @inquirer (loaded on first use): each prompt's own package, not the
 * @inquirer/prompts umbrella, whose editor prompt alone would add 0.5 MB (iconv-lite) to gw.
 */
export class TerminalPrompter implements Prompter {
  readonly #context: Omit<PromptContext, 'signal'>;
  /** Without colour (NO_COLOR, --no-color): the prompts' own styling is turned off too. */
  readonly #theme: Record<string, unknown> | undefined;

  constructor(stdin: InStream | undefined, stderr: OutStream, color: boolean) {
    this.#context = {
      input: stdin as unknown as NodeJS.ReadableStream,
      output: stderr as unknown as NodeJS.WritableStream,
      clearPromptOnDone: false,
    };
    this.#theme = color
      ? undefined
      : {
          prefix: { idle: '?', done: '✔' },
          style: {
            answer: identity,
            message: identity,
            error: (text: string) => `> ${text}`,
            defaultAnswer: (text: string) => `(${text})`,
            help: identity,
            highlight: identity,
            key: identity,
            description: identity,
            disabled: identity,
            keysHelpTip: () => undefined,
          },
        };
  }

  /**
   * Runs one prompt; Ctrl-C (ExitPromptError) becomes the usual interruption, exit 130, and so does
   * Ctrl-D (end of input): @inquirer's readline closes on it and the prompt would never settle, so
   * gw would stop with nothing said. The prompt is aborted instead.
   */
  async #ask<T>(run: (context: PromptContext) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    const input = this.#context.input;
    const onData = (chunk: Buffer | string): void => {
      if (String(chunk).includes('\u0004')) abort.abort();
    };
    const onEnd = (): void => abort.abort();
    input.on('data', onData);
    input.once('end', onEnd);
    try {
      return await run({ ...this.#context, signal: abort.signal });
    } catch (error) {
      if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) throw interrupted();
      throw error;
    } finally {
      input.off('data', onData);
      input.off('end', onEnd);
    }
  }

  #with<C extends object>(config: C): C {
    return this.#theme === undefined ? config : { ...config, theme: this.#theme };
  }

  async input(q: { message: string; default?: string; validate?: Validate }): Promise<string> {
    const { default: input } = await import('@inquirer/input');
    return this.#ask((context) =>
      input(this.#with({ message: q.message, ...(q.default !== undefined && { default: q.default }), ...(q.validate && { validate: q.validate }) }), context),
    );
  }

  async secret(q: { message: string; validate?: Validate }): Promise<string> {
    const { default: password } = await import('@inquirer/password');
    // No mask and no ctrl+t reveal: nothing of the key is ever drawn.
    return this.#ask((context) => password(this.#with({ message: q.message, toggleMask: false, ...(q.validate && { validate: q.validate }) }), context));
  }

  async select<T>(q: { message: string; choices: ReadonlyArray<PromptChoice<T>>; default?: T }): Promise<T> {
    const { default: select } = await import('@inquirer/select');
    const choices = q.choices.map((c) => ({ name: c.name, value: c.value, ...(c.description !== undefined && { description: c.description }) }));
    return this.#ask((context) => select<T>(this.#with({ message: q.message, choices, ...(q.default !== undefined && { default: q.default }) }), context));
  }

  async confirm(q: { message: string; default?: boolean }): Promise<boolean> {
    const { default: confirm } = await import('@inquirer/confirm');
    return this.#ask((context) => confirm(this.#with({ message: q.message, ...(q.default !== undefined && { default: q.default }) }), context));
  }
}
