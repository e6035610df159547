// Everything the CLI prints goes through here: control characters (C0 but tab and newline, DEL, C1),
// bidirectional overrides and lone surrogates are escaped as `\uXXXX`, so a name, a task or a model's text
// carrying ANSI / OSC sequences is shown, never obeyed. The sink is swappable for the in-process entry.

const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `s` with every unsafe character written as `\uXXXX` (inside JSON strings this is the same character). */
export function escapeControl(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface Sink {
  out(s: string): void;
  err(s: string): void;
  /** stderr is a terminal (progress redraws in place) */
  tty?: boolean;
}

/** Readers that went away (`tclab … | head`): what is still printed to them is dropped, quietly. */
const gone = new WeakSet<NodeJS.WriteStream>();

function write(stream: NodeJS.WriteStream, s: string): void {
  if (!gone.has(stream) && !stream.destroyed) stream.write(s);
}

/**
 * The process's stdout and stderr as the CLI's sink. A reader that goes away (EPIPE) ends nothing: the command
 * runs to its end and exits with its own code, printing no more to that stream.
 */
export function processSink(): Sink {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue;
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      gone.add(stream);
    });
  }
  return {
    out: (s) => write(process.stdout, s),
    err: (s) => write(process.stderr, s),
    get tty() {
      return Boolean(process.stderr.isTTY);
    },
  };
}

/** Resolves once everything written to `stream` so far has been handed to the OS (a pipe drains at its reader's pace). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (gone.has(stream) || stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    // written in order: this empty write's callback runs after every earlier write reached the OS (or failed)
    stream.write('', () => resolve());
  });
}

/**
 * End the process with `code` once stdout and stderr are drained. Exiting at once would drop what a pipe has
 * not taken yet (`tclab … --json | jq` received 64 KiB of a longer document); waiting for the event loop to
 * empty instead could wait on a handle a library left open, so the process ends here, after the drain.
 */
export async function exitWhenDrained(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

let sink: Sink = { out: (s) => write(process.stdout, s), err: (s) => write(process.stderr, s) };
let exitCode = 0;

/** Print to stdout (the command's result), escaped. */
export function out(s: string): void {
  sink.out(escapeControl(s));
}
/** Print to stderr (progress, notes, errors), escaped. */
export function err(s: string): void {
  sink.err(escapeControl(s));
}
/** Terminal control the CLI itself writes (the progress line's carriage return and erase-line). */
export function errControl(s: '\r' | '\x1b[K'): void {
  sink.err(s);
}
export function stderrIsTty(): boolean {
  return Boolean(sink.tty);
}

/** The exit code the command asks for (0 unless set). */
export function setExitCode(code: number): void {
  exitCode = code;
}

/** Run `fn` printing to `to`, and return the exit code it set; the previous sink is restored. */
export async function withSink(to: Sink, fn: () => Promise<void>): Promise<number> {
  const [prevSink, prevCode] = [sink, exitCode];
  sink = to;
  exitCode = 0;
  try {
    await fn();
    return exitCode;
  } finally {
    sink = prevSink;
    exitCode = prevCode;
  }
}
