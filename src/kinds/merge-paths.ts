/** Where `merge` may write: never over, inside or around one of its input folders (compared by real path). */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TextstressError } from '../util/errors.ts';

/** A path with symlinks resolved, for a folder that may not exist yet: its nearest existing ancestor's real path. */
function realPath(p: string): string {
  let at = resolve(p);
  const rest: string[] = [];
  while (!existsSync(at) && dirname(at) !== at) {
    rest.unshift(basename(at));
    at = dirname(at);
  }
  return join(realpathSync(at), ...rest);
}

/** Whether `a` is `b` or lies inside it. */
function within(a: string, b: string): boolean {
  const r = relative(b, a);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/** Refuses an output folder that is one of the inputs, lies inside one or holds one: merging there would overwrite a shard. */
export function refuseOverlap(dirs: readonly string[], out: string): void {
  const o = realPath(out);
  for (const dir of dirs) {
    const d = realPath(dir);
    const how = o === d ? 'is' : within(o, d) ? 'lies inside' : within(d, o) ? 'holds' : undefined;
    if (how) {
      throw new TextstressError(`--out ${out} ${how} the shard folder ${dir}: merging there would overwrite that shard.`, {
        hint: 'Name an output folder apart from every shard folder; nothing was changed.',
      });
    }
  }
}
