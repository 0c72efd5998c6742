/**
 * The deploy runbook (docs/deploy.md, where the README points an operator) read the way an operator reads it, for the tests that run its commands
 * (test/infra/runbook.test.ts, test/integration/runbook-curl.test.ts).
 *
 * What counts as a command, so that one added later is found without anyone listing it:
 * - every line of a ```sh (or bash, shell) block, a line ending in `\` joined with the next;
 * - every inline code span that starts with a program the runbook has the operator run (PROGRAMS) or that holds a
 *   command substitution `$(`;
 * - every inline code span that starts with `-c `: context options to add to `npx cdk deploy`.
 * A span is read as Markdown shows it: a span broken over lines is one command, its line break one space.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The programs whose name at the start of a code span makes the span a command. */
export const PROGRAMS = ['aws', 'cdk', 'npx', 'npm', 'node', 'openssl', 'curl', 'cast', 'jq', 'git', 'bash', 'sh'] as const;
const STARTS_COMMAND = new RegExp(`^(?:${PROGRAMS.join('|')})(?:\\s|$)`);

export interface RunbookCommand {
  /** As the operator types it (whitespace of a span broken over lines collapsed). */
  text: string;
  /** The runbook step it appears in. */
  step: number;
  /** An inline span or a line of a fenced block (`block` numbers the blocks of the section from 0). */
  where: { span: true } | { block: number };
}

/** The file the runbook lives in. */
export const RUNBOOK_FILE = path.join(ROOT, 'docs', 'deploy.md');

export function runbookSection(doc = readFileSync(RUNBOOK_FILE, 'utf8')): string {
  const start = doc.indexOf('\n## Deploy runbook');
  if (start < 0) throw new Error('docs/deploy.md has no "## Deploy runbook" section');
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

export function runbookCommands(section = runbookSection()): RunbookCommand[] {
  const stepAt = (offset: number) => {
    let step = 0;
    for (const m of section.matchAll(/^(\d+)\. \*\*/gm)) if (m.index! <= offset) step = Number(m[1]);
    return step;
  };
  const commands: { offset: number; command: RunbookCommand }[] = [];
  let block = 0;
  // Fences are read first and blanked, so that their backticks are not taken for inline spans.
  const inline = section.replace(/^[ \t]*```([\w-]*)\n([\s\S]*?)^[ \t]*```[ \t]*$/gm, (whole, lang: string, body: string, offset: number) => {
    if (!['sh', 'bash', 'shell'].includes(lang)) throw new Error(`the runbook has a \`\`\`${lang || '(no language)'} block: say whether it is commands (sh) or not`);
    const lines = body.replace(/\\\n\s*/g, '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    for (const text of lines) commands.push({ offset, command: { text, step: stepAt(offset), where: { block } } });
    block++;
    return ' '.repeat(whole.length);
  });
  for (const m of inline.matchAll(/`([^`]+)`/g)) {
    const text = m[1].replace(/\s+/g, ' ').trim();
    if (STARTS_COMMAND.test(text) || text.includes('$(') || text.startsWith('-c ')) {
      commands.push({ offset: m.index!, command: { text, step: stepAt(m.index!), where: { span: true } } });
    }
  }
  return commands.sort((a, b) => a.offset - b.offset).map((c) => c.command);
}

/** The lines of one fenced block, in order (they run as one script: a later line may read an earlier one's variable). */
export function blockScript(commands: RunbookCommand[], block: number): string {
  return commands.filter((c) => 'block' in c.where && c.where.block === block).map((c) => c.text).join('\n');
}

export interface ShellRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Each call of a recorded program (`aws`, and `npx cdk`), with its arguments as the shell passed them. */
  calls: { program: 'aws' | 'cdk'; argv: string[] }[];
}

/**
 * Runs `script` with bash from the project's root, as the operator would, except that `aws` and `npx cdk` only
 * record their arguments (they need an AWS account): everything else, command substitutions included, runs for
 * real. A call of `aws` prints `awsStdout` when given (the value a later line reads through `$(…)`; the caller checks
 * the real CLI prints the same). `set -u`: a variable the runbook uses must be one the test sets.
 */
export async function runRecorded(script: string, env: Record<string, string>, awsStdout?: string): Promise<ShellRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'runbook-'));
  const log = path.join(dir, 'calls');
  const preamble = [
    'set -u',
    `record() { { printf '%s\\0' "$@"; printf '\\036\\0'; } >> "$RUNBOOK_CALLS"; }`,
    `aws() { record aws "$@"; if [ -n "\${RUNBOOK_AWS_STDOUT:-}" ]; then printf '%s\\n' "$RUNBOOK_AWS_STDOUT"; fi; }`,
    `npx() { if [ "$1" = cdk ]; then shift; record cdk "$@"; else command npx "$@"; fi; }`,
  ].join('\n');
  try {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'bash',
        ['-c', `${preamble}\n${script}`],
        { cwd: ROOT, env: { ...process.env, ...env, RUNBOOK_CALLS: log, ...(awsStdout ? { RUNBOOK_AWS_STDOUT: awsStdout } : {}) }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    let recorded = '';
    try {
      recorded = readFileSync(log, 'utf8');
    } catch {
      // Nothing recorded: the script called neither aws nor npx cdk.
    }
    const calls = recorded
      .split('\u001e\0')
      .filter((c) => c.length > 0)
      .map((c) => {
        const [program, ...argv] = c.split('\0').slice(0, -1);
        return { program: program as 'aws' | 'cdk', argv };
      });
    return { ...result, calls };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
