// Graceful shutdown. Resources register a close step as soon as they exist;
// steps run one after another in reverse order of registration (last opened,
// first closed), so the HTTP server stops taking work before the clients it
// uses go away, and the embedded event store closes last. The whole sequence
// is bounded: a step that hangs does not keep a dying process alive.
import type { Logger } from './logger';

export interface ShutdownStep {
  readonly name: string;
  /** `remainingMs`: time left in the overall budget when the step starts. */
  run(remainingMs: number): Promise<void>;
}

export interface ShutdownOptions {
  readonly logger: Logger;
  readonly timeoutMs: number;
  /** Injected so tests can observe the exit code; defaults to process.exit. */
  readonly exit?: (code: number) => void;
}

/** The signals that ask for a graceful stop. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
/** The signal that asks to stop now, whatever is under way. */
export const FORCE_SIGNAL: NodeJS.Signals = 'SIGQUIT';

export type SignalAnswer = 'shut down' | 'ignore' | 'exit now';

/**
 * What a signal does, given how many stop signals came before it. A stop
 * signal sent to a process group often arrives twice: once from the sender
 * and once more from a parent that passes it on (npm does, for a Ctrl-C in a
 * terminal, systemd's stop of the whole unit or `docker stop` of an image
 * started through npm). So the second stop signal is no reason to cut the
 * shutdown short: closing in order is what keeps the last reads and lets the
 * readers hear CLOSE_CONNECTION. Only a third, which no forwarding produces,
 * or SIGQUIT, forces the exit.
 */
export function answerToSignal(signal: NodeJS.Signals, stopSignalsBefore: number): SignalAnswer {
  if (signal === FORCE_SIGNAL || stopSignalsBefore >= 2) return 'exit now';
  return stopSignalsBefore === 0 ? 'shut down' : 'ignore';
}

export class Shutdown {
  private readonly steps: ShutdownStep[] = [];
  private running: Promise<number> | undefined;
  private readonly logger: Logger;
  private readonly exit: (code: number) => void;

  constructor(private readonly opts: ShutdownOptions) {
    this.logger = opts.logger;
    this.exit = opts.exit ?? ((code) => process.exit(code));
  }

  get started(): boolean {
    return this.running !== undefined;
  }

  /**
   * Registers a close step. A resource that finished opening after shutdown
   * began is closed straight away, so a signal during start-up leaks nothing.
   */
  add(name: string, run: (remainingMs: number) => Promise<void>): void {
    if (this.running) {
      this.logger.info('shutdown: closing resource opened during shutdown', { step: name });
      run(this.opts.timeoutMs).catch((err: unknown) => this.logger.error('shutdown step failed', { step: name, err }));
      return;
    }
    this.steps.push({ name, run });
  }

  /**
   * Runs every step once; resolves with the exit code: `code` (1 when the
   * shutdown is the answer to a failure) or 1 if a step failed or overran.
   */
  run(reason: string, code = 0): Promise<number> {
    this.running ??= this.runSteps(reason, code);
    return this.running;
  }

  /** Runs the steps, then exits the process with their result. */
  async runAndExit(reason: string, code = 0): Promise<void> {
    const result = await this.run(reason, code);
    this.exit(Math.max(code, result));
  }

  /**
   * SIGTERM and SIGINT start a graceful shutdown; SIGQUIT, or a third stop
   * signal, ends the process at once (exit code 1). See answerToSignal.
   */
  installSignalHandlers(): void {
    let stopSignals = 0;
    for (const signal of [...STOP_SIGNALS, FORCE_SIGNAL]) {
      process.on(signal, () => {
        const answer = answerToSignal(signal, stopSignals);
        if (signal !== FORCE_SIGNAL) stopSignals++;
        this.answer(signal, answer);
      });
    }
  }

  /** Acts on what answerToSignal decided (public so tests can drive it without signalling their own process). */
  answer(signal: NodeJS.Signals, answer: SignalAnswer): void {
    if (answer === 'shut down') {
      void this.runAndExit(signal);
    } else if (answer === 'ignore') {
      this.logger.info('signal repeated during shutdown; carrying on (a third one, or SIGQUIT, exits at once)', { signal });
    } else {
      this.logger.warn('exiting now without finishing shutdown', { signal });
      this.exit(1);
    }
  }

  private async runSteps(reason: string, requestedCode: number): Promise<number> {
    const started = Date.now();
    const deadline = started + this.opts.timeoutMs;
    this.logger.info('shutdown started', { reason, timeoutMs: this.opts.timeoutMs, steps: this.steps.length });
    let current = '';
    let timer: NodeJS.Timeout | undefined;
    const overtime = new Promise<number>((resolve) => {
      timer = setTimeout(() => {
        this.logger.error('shutdown timed out', { timeoutMs: this.opts.timeoutMs, step: current });
        resolve(1);
      }, this.opts.timeoutMs);
    });
    const all = (async (): Promise<number> => {
      // The logged code is the one the process exits with: a failed start
      // whose resources all closed cleanly still exits 1.
      let code = requestedCode;
      for (const step of [...this.steps].reverse()) {
        current = step.name;
        const t0 = Date.now();
        this.logger.info('shutdown step', { step: step.name });
        try {
          await step.run(Math.max(0, deadline - t0));
          this.logger.info('shutdown step done', { step: step.name, ms: Date.now() - t0 });
        } catch (err) {
          // Keep going: a failing client close must not keep the event store open.
          code = 1;
          this.logger.error('shutdown step failed', { step: step.name, ms: Date.now() - t0, err });
        }
      }
      return code;
    })();
    const code = await Promise.race([all, overtime]);
    clearTimeout(timer);
    this.logger.info('shutdown finished', { reason, code, ms: Date.now() - started });
    return code;
  }
}
