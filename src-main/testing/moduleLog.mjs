// `node --import ./src-main/testing/moduleLog.mjs …`: appends to the file named by QUIRE_MODULE_LOG every module the
// process loads (each import's resolved URL, through a resolve hook; at exit, every CommonJS module in require's cache),
// one a line. Tests use it to check what a start loads (startLoads.test.ts). Plain JavaScript: it must run before
// any TypeScript loader, and its hooks run on the loader's own thread.
import { appendFileSync } from 'node:fs'
import { createRequire, register } from 'node:module'

const file = process.env.QUIRE_MODULE_LOG
if (file) {
  register('./moduleLogHooks.mjs', import.meta.url, { data: { file } })
  process.on('exit', () => {
    const cached = Object.keys(createRequire(import.meta.url).cache)
    appendFileSync(file, cached.map((path) => `${path}\n`).join(''))
  })
}
