/**
 * Runs after vitest's default reporter and lists every skipped test with the reason given to `ctx.skip(reason)`,
 * so that nothing is skipped quietly in a green run (test/architecture/self-contained.test.ts forbids the
 * reasonless `.skip`/`.skipIf`/`.todo` forms). Tests left out by a `-t` filter have no reason and are only counted.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SkippedReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const withReason: string[] = [];
    let without = 0;
    for (const m of modules) {
      for (const t of m.children.allTests('skipped')) {
        const result = t.result();
        const note = result.state === 'skipped' ? result.note : undefined;
        if (note) withReason.push(`   ${m.relativeModuleId} > ${t.fullName}\n     reason: ${note}`);
        else without++;
      }
    }
    if (withReason.length === 0 && without === 0) return;
    const lines = [`\n SKIPPED ${withReason.length + without} test(s) — not checked in this run:`, ...withReason];
    if (without) lines.push(`   ${without} without a reason: left out by a -t filter, or a hook of their suite failed (see above)`);
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }
}
