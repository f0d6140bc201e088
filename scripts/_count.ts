import ts from 'typescript';
import { resolve } from 'node:path';
const files = process.argv.slice(2).map((f) => resolve(f));
const cfg = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
const prog = ts.createProgram(files, cfg.options);
const checker = prog.getTypeChecker();
for (const f of files) {
  const sf = prog.getSourceFile(f)!;
  const sym = checker.getSymbolAtLocation(sf)!;
  const names = checker.getExportsOfModule(sym).map((s) => s.name).sort();
  // names through export *
  let star = 0;
  const explicit = new Set<string>();
  for (const st of sf.statements) if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) for (const e of st.exportClause.elements) explicit.add(e.name.text);
  const stars = sf.statements.filter((s) => ts.isExportDeclaration(s) && !s.exportClause).length;
  star = names.filter((n) => !explicit.has(n)).length;
  console.log(f, 'total', names.length, 'export* stmts', stars, 'names via export*', star);
  if (process.env.LIST) console.log(names.join('\n'));
}
