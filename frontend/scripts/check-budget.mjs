/**
 * The size budget of the built web app (gzip bytes, read from the Vite manifest of the last
 * build): each route's first-load JavaScript, i.e. the entry chunk, the route's own lazy module
 * and every chunk they import (what the browser downloads and modulepreloads before the page is
 * usable), and every route chunk on its own. Exits non-zero over budget.
 */
import { existsSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const DIST = new URL('../dist/', import.meta.url)
const META = new URL('../dist-meta/', import.meta.url)
const MANIFEST = new URL('manifest.json', META)
const KB = 1000
// React, React DOM and React Router's data router alone weigh about 97 KB of /sign-in's 120 KB
// and openapi-fetch 2.4 KB: the app's own code for the page is about 20 KB, of which Vite's
// preload map of the lazy screens (in the entry) is about 2 KB.
export const ROUTE_BUDGETS = {
  '/sign-in': {
    modules: ['src/app/layouts/AuthLayout.tsx', 'src/features/auth/routes/SignIn.tsx'],
    maxBytes: 120 * KB,
  },
  '/dashboard': {
    modules: [
      // The document's first script, on signed-in pages (the server leaves it out of sign-in's).
      'src/early.ts',
      'src/app/layouts/SignedInLayout.tsx',
      'src/app/layouts/AppLayout.tsx',
      'src/features/dashboard/routes/Dashboard.tsx',
    ],
    maxBytes: 150 * KB,
  },
}
export const CHUNK_MAX_BYTES = 50 * KB
// Not route chunks: loaded only when a deployment turns the feature on (spec §8 error
// reporting with a DSN), never on a page's first load. Listed with their size, not budgeted.
export const OPTIONAL_MODULES = [/^node_modules\/@sentry\//, /^src\/lib\/sentry\.ts$/]

if (!existsSync(MANIFEST)) {
  console.error('No build manifest: run `make build` first.')
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'))
const gzipCache = new Map()

function gzipBytes(file) {
  if (!gzipCache.has(file)) {
    gzipCache.set(file, gzipSync(readFileSync(new URL(file, DIST)), { level: 9 }).length)
  }
  return gzipCache.get(file)
}

/**
 * The manifest key of the chunk a module went into: its own chunk (a lazy module's), else the
 * named chunk that holds it (a chunk's source map lists its modules).
 */
function chunkKeyOf(module) {
  if (manifest[module]) return module
  for (const [key, chunk] of Object.entries(manifest)) {
    const map = new URL(`${chunk.file}.map`, META)
    if (!chunk.file.endsWith('.js') || !existsSync(map)) continue
    const { sources } = JSON.parse(readFileSync(map, 'utf8'))
    if (sources.some((source) => source.endsWith(`/${module}`))) return key
  }
  throw new Error(`${module} is in no chunk of the build`)
}

/** The chunk of a manifest key and every chunk it imports statically, as output file names. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key]
  if (!chunk) throw new Error(`${key} is not in the build manifest`)
  if (seen.has(chunk.file)) return seen
  seen.add(chunk.file)
  for (const imported of chunk.imports ?? []) closure(imported, seen)
  return seen
}

// index.html's own entry (src/early.ts is the other, counted with the pages that load it).
const entryKey = 'index.html'
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`
let failures = 0

console.log('First-load JavaScript (gzip):')
for (const [route, { modules, maxBytes }] of Object.entries(ROUTE_BUDGETS)) {
  const files = new Set(closure(entryKey))
  for (const module of modules) for (const file of closure(chunkKeyOf(module))) files.add(file)
  const total = [...files].reduce((sum, file) => sum + gzipBytes(file), 0)
  const over = total > maxBytes
  failures += over ? 1 : 0
  console.log(
    `  ${over ? 'OVER' : 'ok  '} ${route}: ${kb(total)} of ${kb(maxBytes)} (${total} bytes, ${files.size} files)`,
  )
}

// Route chunks: everything but the entry and the chunks it imports (loaded on every page),
// and the optional ones.
const everyPage = closure(entryKey)
const optional = Object.entries(manifest).filter(([key]) =>
  OPTIONAL_MODULES.some((pattern) => pattern.test(key)),
)
const optionalFiles = new Set(optional.map(([, chunk]) => chunk.file))
const chunks = Object.values(manifest).filter(
  (chunk) =>
    chunk.file.endsWith('.js') && !everyPage.has(chunk.file) && !optionalFiles.has(chunk.file),
)
const largest = chunks
  .map((chunk) => ({ file: chunk.file, bytes: gzipBytes(chunk.file) }))
  .sort((a, b) => b.bytes - a.bytes)
const overChunks = largest.filter((chunk) => chunk.bytes > CHUNK_MAX_BYTES)
failures += overChunks.length
const everyPageBytes = [...everyPage].reduce((sum, file) => sum + gzipBytes(file), 0)
console.log(`Entry and the libraries every page loads: ${kb(everyPageBytes)}`)
console.log(`Largest route chunks (each at most ${kb(CHUNK_MAX_BYTES)}):`)
for (const chunk of largest.slice(0, 5)) {
  const over = chunk.bytes > CHUNK_MAX_BYTES
  console.log(`  ${over ? 'OVER' : 'ok  '} ${chunk.file}: ${kb(chunk.bytes)}`)
}
for (const chunk of overChunks.slice(5)) console.log(`  OVER ${chunk.file}: ${kb(chunk.bytes)}`)

for (const [key, chunk] of optional) {
  console.log(`  optional ${chunk.file} (${key.split('/').slice(1, 3).join('/')}): ${kb(gzipBytes(chunk.file))}`)
}

// The entry's stylesheet is inline in the served index.html; a chunk importing the entry would
// make Vite's preload helper fetch and apply that stylesheet a second time.
const entryImporters = Object.entries(manifest).filter(([, chunk]) =>
  (chunk.imports ?? []).includes(entryKey),
)
for (const [key] of entryImporters) console.log(`  OVER ${key} imports the entry chunk`)
failures += entryImporters.length

if (failures) {
  console.error(`The web app is over its size budget (${failures}).`)
  process.exit(1)
}
console.log('The web app is within its size budget.')
