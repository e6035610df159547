// What a failed stdio MCP server said about why: the first line of its stderr that reads as the error —
// not its tail, which for a Node.js program is a stack and the version banner ("Node.js v20.20.2").

const MAX_LINE = 300;

/** Lines that never say why: Node's banner, stack frames, the caret under the echoed source, its location. */
function isNoise(line: string): boolean {
  return (
    /^Node\.js v\d+/.test(line) ||
    /^at\s/.test(line) ||
    /^\^+$/.test(line) ||
    /^(\[eval\]|file:\/\/|\/|[A-Za-z]:\\|node:)[^\s]*:\d+(:\d+)?$/.test(line) ||
    /^throw\b/.test(line) ||
    /^\{$|^\}$/.test(line) ||
    /^\(Use `node --trace/.test(line)
  );
}

/** `Error: …`, `TypeError [ERR_X]: …`, `Uncaught Exception: …`, `error: …`, `Fatal: …` */
const ERROR_LINE = /^(Uncaught\s+)?([\w.]*(Error|Exception)(\s*\[[^\]]*\])?|error|fatal|FATAL|ERROR)\s*:/i;
const SAYS_ERROR = /\b(error|fatal|failed|cannot|can't|unable|missing|denied|not found)\b/i;

/** The line of `stderr` that says why the server failed, or null when it wrote nothing useful. */
export function stderrReason(stderr: string): string | null {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !isNoise(l));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines.find((l) => SAYS_ERROR.test(l)) ?? lines[0];
  if (line === undefined) return null;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
