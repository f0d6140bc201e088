import { existsSync, statSync } from 'node:fs';
import { Command } from 'commander';
import { compareRuns, type Comparison } from '../../report/compare/index.ts';
import { TextstressError } from '../../util/errors.ts';
import { startViewServer, VIEW_MAX_EXAMPLES } from '../../report/view/server.ts';
import type { Registry } from '../../recipes/registry/registry.ts';
import { addFlags } from '../options.ts';

interface ViewCliOptions {
  port: number;
  maxExamples: number;
}

export function viewCommand(registry: Registry): Command {
  const cmd = new Command('view')
    .description('browse run folders in a local web app: every run with its figures, a run’s report, two runs compared, a model over time')
    .argument('[dirs...]', 'run folders, or folders holding runs (default: the current folder)');
  return addFlags(cmd, {
    port: true,
    // Smaller than a written report's: the server samples and renders a run's report on each request.
    maxExamples: { help: "most examples in a run report's example browser", default: VIEW_MAX_EXAMPLES },
  })
    .addHelpText(
      'after',
      '\nListens on 127.0.0.1 only and answers only its own Host (no CORS); the page loads nothing from the network.\n' +
        'Results files are read only when a run is opened or compared. Stop it with Ctrl-C (SIGINT) or SIGTERM.\n\n' +
        'Example:\n  npx textstress view runs/ textstress-demo/\n',
    )
    .action(async (dirs: string[], opts: ViewCliOptions) => {
      const roots = dirs.length ? dirs : ['.'];
      // A folder that is not there is a mistake (a typo, the wrong working folder), not an empty list to serve.
      const missing = roots.filter((r) => !existsSync(r) || !statSync(r).isDirectory());
      if (missing.length) {
        throw new TextstressError(
          `${missing.map((m) => `"${m}"`).join(', ')} ${missing.length === 1 ? 'is not a folder' : 'are not folders'}: nothing to view.`,
          { hint: 'Name folders of runs (e.g. runs/ or textstress-demo/), or run view inside one.' },
        );
      }
      const compare = (a: string, b: string): Promise<Comparison> => compareRuns(a, b);
      const server = await startViewServer({ roots, port: opts.port, registry, maxExamples: opts.maxExamples, compare });
      process.stderr.write(`textstress view: ${roots.join(', ')} at ${server.url}/ (Ctrl-C stops it)\n`);
      await new Promise<void>((done) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void server.close().then(done);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
