/**
 * Lists, after the run, every test that took more than a third of its timeout, and every file whose hooks
 * (beforeAll & co., measured as the file's time outside its tests) took more than a third of the hook timeout:
 * such a test is what fails first on a busy machine. A printed list, never a failure (speed is not asserted).
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export default class SlowReporter implements Reporter {
  private testTimeout = 5_000;
  private hookTimeout = 10_000;

  onInit(vitest: Vitest): void {
    this.testTimeout = vitest.config.testTimeout;
    this.hookTimeout = vitest.config.hookTimeout;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const m of modules) {
      let inTests = 0;
      for (const t of m.children.allTests()) {
        const d = t.diagnostic();
        if (!d) continue;
        inTests += d.duration;
        const timeout = t.options.timeout ?? this.testTimeout;
        if (d.duration > timeout / 3) lines.push(`   ${m.relativeModuleId} > ${t.fullName}: ${s(d.duration)} of ${s(timeout)}`);
      }
      const hooks = m.diagnostic().duration - inTests;
      // A file's hooks together, against the default hook timeout (a hook may set a longer one of its own).
      if (hooks > this.hookTimeout / 3)
        lines.push(
          `   ${m.relativeModuleId} (its hooks together): ${s(hooks)} of the default ${s(this.hookTimeout)} (fine if the hook sets a longer one)`,
        );
    }
    if (lines.length === 0) return;
    process.stdout.write(
      `\n SLOW ${lines.length}: over a third of the timeout (fine on this machine, at risk on a busier one):\n${lines.join('\n')}\n\n`,
    );
  }
}
