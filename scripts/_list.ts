import ts from 'typescript';
import { resolve, relative } from 'node:path';
const f = resolve(process.argv[2]!);
const cfg = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
const prog = ts.createProgram([f], cfg.options);
const checker = prog.getTypeChecker();
const sym = checker.getSymbolAtLocation(prog.getSourceFile(f)!)!;
const by = new Map<string, string[]>();
for (const s of checker.getExportsOfModule(sym)) {
  const t = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
  const d = t.declarations?.[0];
  const file = d ? relative('src', d.getSourceFile().fileName) : '?';
  const isType = !(t.flags & ts.SymbolFlags.Value);
  (by.get(file) ?? by.set(file, []).get(file)!).push((isType ? 't:' : '') + s.name);
}
for (const [k, v] of [...by].sort()) console.log(k + ': ' + v.join(' '));
