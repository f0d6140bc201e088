/**
 * Which Host headers `serve` answers (a DNS-rebinding guard): its own address, the name it was asked to listen on,
 * loopback names when it listens on loopback, and any --allowed-host.
 */
import { isIPv6 } from 'node:net';
import { ModelError } from '../util/errors.ts';

/** A Host header value split into a lower-cased name (IPv6 without brackets) and a port (absent: undefined). */
function splitHost(value: string): { name: string; port?: number } | undefined {
  const m = /^(?:\[([0-9a-f:.]+)\]|([^\s:/[\]@]+))(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!m) return undefined;
  return { name: (m[1] ?? m[2]!).toLowerCase(), ...(m[3] ? { port: Number(m[3]) } : {}) };
}

const showName = (name: string): string => (isIPv6(name) ? `[${name}]` : name);

function isLoopback(address: string): boolean {
  return /^(::ffff:)?127\./i.test(address) || address === '::1';
}

/** The allowedHosts entries, checked: a user's typo (`http://proxy`) should fail at startup, not as 403s later. */
export function parseAllowedHosts(entries: readonly string[]): { name: string; port?: number }[] {
  return entries.map((entry) => {
    const parsed = splitHost(entry);
    if (!parsed) {
      throw new ModelError(`cannot serve the model: '${entry}' is not a host name for --allowed-host.`, {
        hint: 'Give a name such as proxy.internal, optionally with a port (proxy.internal:8443), without http:// or a path.',
      });
    }
    return parsed;
  });
}

export interface HostPolicy {
  /** Whether a request with this Host header may be answered. */
  accepts(host: string | undefined): boolean;
  /** The accepted values, for messages; empty when any Host is accepted. */
  accepted: string[];
  /** What to tell the user at startup, when the server is reachable from other machines. */
  warning?: string;
}

/**
 * Which Host headers a server bound to `address` (as Node reports it) on `port` answers. `typed` is the host as
 * the user gave it (a name such as `myhost.lan` is accepted besides its address); `extra` adds names (a
 * reverse proxy's), each `name` (any port) or `name:port`.
 */
export function hostPolicy(address: string, port: number, typed?: string, extra: readonly string[] = []): HostPolicy {
  const wildcard = address === '0.0.0.0' || address === '::';
  if (wildcard) {
    return {
      accepts: () => true,
      accepted: [],
      warning:
        `listening on ${showName(address)} (every network interface): the model is reachable from other machines, with no ` +
        'authentication, and the Host check that stops DNS-rebinding web pages is off. Bind 127.0.0.1 (the default) ' +
        'unless this network is trusted; behind a reverse proxy, bind 127.0.0.1 and name the proxy with --allowed-host.',
    };
  }
  const allowed: { name: string; port?: number }[] = [];
  const names = isLoopback(address) ? ['127.0.0.1', 'localhost', '::1', address] : [address];
  const typedName = typed ? splitHost(typed)?.name : undefined;
  if (typedName) names.push(typedName);
  for (const name of new Set(names)) allowed.push({ name, port });
  allowed.push(...parseAllowedHosts(extra));
  return {
    accepts: (host) => {
      const h = host === undefined ? undefined : splitHost(host);
      // A Host without a port means the scheme's default, 80.
      return !!h && allowed.some((a) => a.name === h.name && (a.port === undefined || a.port === (h.port ?? 80)));
    },
    accepted: allowed.map((a) => (a.port === undefined ? `${showName(a.name)} (any port)` : `${showName(a.name)}:${a.port}`)),
    ...(isLoopback(address)
      ? {}
      : {
          warning: `listening on ${showName(address)}: the model is reachable from other machines on that network, with no authentication.`,
        }),
  };
}
