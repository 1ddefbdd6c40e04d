/** What a git process answered: its output and exit code. */
export interface GitRun {
  stdout: string;
  code: number;
}

/**
 * Answers of git that depend on nothing but full commit ids (a diff, a commit's fields, what one
 * commit has that another lacks): objects never change, so the answer never does. Kept per
 * repository and arguments, the newest 256 (an answer over 1 MB is not kept). A pull request's
 * page, its REST shapes and every poll of them ask the same questions again, and each git is a
 * process forked from the service (measured: 583 git processes for two test files, most of them
 * these).
 */
const answers = new Map<string, Promise<GitRun>>();
const ANSWERS_MAX = 256;
const ANSWER_MAX_BYTES = 1 << 20;

export function remembered(key: string, run: () => Promise<GitRun>): Promise<GitRun> {
  const kept = answers.get(key);
  if (kept) {
    answers.delete(key);
    answers.set(key, kept);
    return kept;
  }
  const answer = run();
  answers.set(key, answer);
  if (answers.size > ANSWERS_MAX) answers.delete(answers.keys().next().value as string);
  answer.then(
    (r) => {
      if (r.stdout.length > ANSWER_MAX_BYTES) answers.delete(key);
    },
    () => answers.delete(key),
  );
  return answer;
}
