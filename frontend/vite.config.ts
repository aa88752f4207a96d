/// <reference types="vitest/config" />
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { CUSTOMER_QUOTES } from './src/features/auth/components/quotes'
import { LG_UP } from './src/lib/useMediaQuery'
import type { OutputBundle, OutputChunk } from 'rolldown'

/** Build outputs for tooling (the size budget, error reporting), kept out of the served dist/. */
const BUILD_META_DIR = fileURLToPath(new URL('./dist-meta', import.meta.url))

/**
 * Moves the source maps and the manifest out of the served folder once the bundle is written.
 * A build into another folder (the browser tests' builds with other settings) drops them
 * instead, so it never replaces the meta of dist/ that the size budget reads, nor races
 * another such build for the one meta folder.
 */
function keepBuildMetaPrivate(): Plugin {
  return {
    name: 'keep-build-meta-private',
    apply: 'build',
    writeBundle(options) {
      const outDir = resolve(options.dir ?? 'dist')
      const keep = outDir === fileURLToPath(new URL('./dist', import.meta.url))
      if (keep) rmSync(BUILD_META_DIR, { recursive: true, force: true })
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
      for (const file of files) {
        if (!file.endsWith('.map') && file !== join('.vite', 'manifest.json')) continue
        if (!keep) {
          rmSync(join(outDir, file), { force: true })
          continue
        }
        const target = join(BUILD_META_DIR, file.replace(/^\.vite[\\/]/, ''))
        mkdirSync(dirname(target), { recursive: true })
        renameSync(join(outDir, file), target)
      }
      rmSync(join(outDir, '.vite'), { recursive: true, force: true })
    },
  }
}

/**
 * The installed app's name (public/manifest.webmanifest) is the product's, as the page title is
 * (VITE_PRODUCT_NAME, 'Concierge' when unset): the copy in the built folder is renamed.
 */
function webManifestNamed(): Plugin {
  return {
    name: 'web-manifest-named',
    apply: 'build',
    writeBundle(options) {
      const file = join(resolve(options.dir ?? 'dist'), 'manifest.webmanifest')
      const name = process.env.VITE_PRODUCT_NAME || 'Concierge'
      const manifest = JSON.parse(readFileSync(file, 'utf8'))
      writeFileSync(file, `${JSON.stringify({ ...manifest, name, short_name: name }, null, 2)}\n`)
    },
  }
}

/**
 * The screens' code that index.html may preload, by the names the server gives a path (see
 * concierge/common/views.py): the server keeps the links of the path's names and drops the rest,
 * so a screen's code downloads beside the entry instead of after it. A module with a `media`
 * query is preloaded only on the screens it matches.
 */
type RoutePreload = string | { module: string; media: string }

/** The sign-in family's illustration, on wide screens only (AuthLayout). */
const AUTH_ILLUSTRATION = { module: 'src/features/auth/components/AuthIllustration.tsx', media: LG_UP }

const ROUTE_PRELOADS: Record<string, RoutePreload[]> = {
  'sign-in': [
    'src/app/layouts/AuthLayout.tsx',
    'src/features/auth/routes/SignIn.tsx',
    AUTH_ILLUSTRATION,
  ],
  auth: ['src/app/layouts/AuthLayout.tsx', AUTH_ILLUSTRATION],
  app: ['src/app/layouts/SignedInLayout.tsx', 'src/app/layouts/AppLayout.tsx'],
  dashboard: ['src/features/dashboard/routes/Dashboard.tsx'],
  requests: ['src/features/requests/routes/Requests.tsx'],
  'benefits-and-offers': ['src/features/offerings/routes/OfferingsLanding.tsx'],
}

function staticImports(bundle: OutputBundle, fileName: string, seen = new Set<string>()) {
  const chunk = bundle[fileName] as OutputChunk | undefined
  if (!chunk || seen.has(fileName)) return seen
  seen.add(fileName)
  for (const imported of chunk.imports) staticImports(bundle, imported, seen)
  return seen
}

/** Adds `<link rel="modulepreload" data-for="names">` for each screen's chunks to index.html. */
function routePreloads(): Plugin {
  return {
    name: 'route-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return []
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk')
        const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === 'index')
        const loaded = entry ? staticImports(bundle, entry.fileName) : new Set<string>()
        // Each file once per media query (none: every screen), with the names that want it;
        // the links for every screen come first, and a name they cover needs no other.
        const wanted = Object.entries(ROUTE_PRELOADS).flatMap(([name, preloads]) =>
          preloads.map((preload): { name: string; module: string; media?: string } => ({
            name,
            ...(typeof preload === 'string' ? { module: preload } : preload),
          })),
        )
        wanted.sort((a, b) => Number(Boolean(a.media)) - Number(Boolean(b.media)))
        const links = new Map<string, { file: string; media?: string; names: string[] }>()
        for (const { name, module, media } of wanted) {
          const chunk = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(module)))
          if (!chunk) throw new Error(`No chunk for ${module}`)
          for (const file of staticImports(bundle, chunk.fileName)) {
            if (loaded.has(file)) continue
            if (media && links.get(`${file} `)?.names.includes(name)) continue
            const key = `${file} ${media ?? ''}`
            const link = links.get(key) ?? { file, media, names: [] }
            if (!link.names.includes(name)) link.names.push(name)
            links.set(key, link)
          }
        }
        return [...links.values()].map(({ file, media, names }) => ({
          tag: 'link',
          attrs: {
            rel: 'modulepreload',
            crossorigin: true,
            href: `/${file}`,
            ...(media ? { media } : {}),
            'data-for': names.join(' '),
          },
          injectTo: 'head' as const,
        }))
      },
    },
  }
}

/**
 * Loads the early chunk (src/early.ts) as a script of its own, first in the document. Module
 * scripts run in document order once the document is parsed, so it runs before the entry
 * (whose first request would otherwise close the early ones), and it never waits for the app's
 * other chunks, which it does not import. Not `async`: an async script may run after the entry.
 */
function earlyScript(): Plugin {
  return {
    name: 'early-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const early = Object.values(bundle ?? {}).find(
          (c): c is OutputChunk => c.type === 'chunk' && c.isEntry && c.name === 'early',
        )
        if (!early) throw new Error('No chunk for src/early.ts')
        const src = `/${early.fileName}`
        return {
          html: html.replace(`<link rel="modulepreload" crossorigin href="${src}">`, ''),
          tags: [
            {
              tag: 'script',
              attrs: { type: 'module', crossorigin: true, src },
              injectTo: 'head-prepend',
            },
          ],
        }
      },
    },
  }
}

/**
 * A chunk's modules, named as the module graph names them: a path ending in `/` is a folder
 * (a package's, or one of the app's), any other a file. The build fails when a name matches no
 * module (`everyChunkNameUsed`), so a rename or a move cannot quietly change what a page loads.
 */
type ChunkModules = string[]

const packages = (...names: string[]) => names.map((name) => `node_modules/${name}/`)
const icons = (...names: string[]) =>
  names.map((name) => `node_modules/lucide-react/dist/esm/icons/${name}.js`)
const files = (folder: string, ...names: string[]) => names.map((name) => `src/${folder}/${name}`)

function moduleId(id: string): string {
  return id.split('?')[0].replaceAll('\\', '/')
}

function matchesModule(name: string, id: string): boolean {
  return name.endsWith('/') ? id.includes(`/${name}`) : id.endsWith(`/${name}`)
}

const inChunk = (modules: ChunkModules) => (id: string) =>
  modules.some((name) => matchesModule(name, moduleId(id)))

/**
 * What every page runs: React, the router, the API client, the design system's basics, and
 * what the screens share with the entry. No screen imports the entry chunk itself: Vite would
 * then load the entry's stylesheet again with that screen, though the server inlines it.
 */
const EVERY_PAGE: ChunkModules = [
  ...packages('react', 'react-dom', 'scheduler', 'react-router', 'openapi-fetch'),
  'node_modules/lucide-react/dist/esm/shared/',
  ...['defaultAttributes.js', 'Icon.js', 'createLucideIcon.js'].map(
    (name) => `node_modules/lucide-react/dist/esm/${name}`,
  ),
  ...icons('external-link', 'circle-alert', 'circle-check'),
  'src/api/client.ts',
  ...files('lib', 'session.ts', 'config.ts', 'errors.ts', 'analytics.ts', 'currentUser.ts'),
  ...files('lib', 'errorReporting.ts', 'firstScreen.ts', 'useMediaQuery.ts', 'titleCount.ts'),
  ...files('design-system', 'button/', 'spinner/', 'link/', 'text/', 'heading/', 'logo/', 'utils/'),
  'src/design-system/toast/ToastProvider.tsx',
  ...files('app', 'guards.tsx', 'FullPageSpinner.tsx'),
]

/**
 * What the document's first script (src/early.ts, signed-in pages) shares with every page: the
 * configuration and the early requests' hand-over, in a chunk of their own, so that script
 * never waits for a larger one and the sign-in family loads none of the rest of it.
 */
const EARLY_SHARED: ChunkModules = ['src/api/earlyRequests.ts', 'src/lib/config.ts']

/**
 * The Dashboard screen in one file, its pieces and the request ideas' tabs (phones) included,
 * rather than a request for each.
 */
const DASHBOARD: ChunkModules = ['src/features/dashboard/routes/', 'src/features/dashboard/components/']

/** The query cache and the queries every screen that uses it starts from. */
const QUERY: ChunkModules = [
  'node_modules/@tanstack/',
  ...files('lib', 'queryClient.ts', 'currentUserQuery.ts'),
]

/**
 * The sign-in family's shared pieces (the forms, their rules, the account calls); not the
 * layout or the screens, which the router loads by name (ROUTE_PRELOADS).
 */
const SIGN_IN_FAMILY: ChunkModules = [
  ...files('features/auth', 'components/AuthHeader.tsx', 'components/SupportLink.tsx', 'api/auth.ts'),
  ...files('design-system', 'text-input/', 'field/', 'form-error/'),
  ...files('lib', 'formRules.ts', 'validation.ts', 'useSchemaForm.ts'),
  ...icons('key-round', 'eye', 'eye-off'),
]

/**
 * What the signed-in screens share: the layouts and the shell, the design system's light
 * pieces and tabs, the request lists' helpers and the icons they show, and the screens' route
 * loaders.
 * One chunk, rather than a request for each of some thirty small modules on a signed-in page's
 * first load.
 */
const SIGNED_IN: ChunkModules = [
  ...files('app', 'layouts/SignedInLayout.tsx', 'layouts/AppLayout.tsx', 'shell/'),
  ...files('design-system', 'assistant/', 'avatar/', 'brought-to-you-by/', 'category-icon/'),
  ...files('design-system', 'load-failed/', 'page-header/', 'skeleton/', 'skip-link/', 'tabs/'),
  ...files('lib', 'apiError.ts', 'events.ts', 'format.ts', 'live.ts', 'site.ts', 'useNow.ts'),
  ...files('features/company', 'api.ts', 'components/CompanyReportLink.tsx'),
  ...files('features/requests', 'live.ts'),
  // Notifications' entry: lazy wrappers only (the pieces and push code load when shown).
  'src/features/notifications/index.ts',
  'src/features/account/components/EmailVerificationNotice.tsx',
  ...files('features/conversation', 'api.ts', 'wording.ts', 'components/StatusBadge.tsx'),
  ...files('features/request-drawer', 'RequestDrawerProvider.tsx', 'requestDrawer.ts', 'surveys.ts'),
  'src/features/request-drawer/components/SurveyButton.tsx',
  // The screens' route loaders, so a screen's data requests start before its code has loaded.
  ...files('features', 'dashboard/loader.ts', 'requests/loader.ts', 'offerings/loader.ts'),
  ...icons('arrow-right', 'chart-column', 'chevron-left', 'chevron-right', 'clock', 'gift'),
  ...icons('house', 'layout-dashboard', 'list-checks', 'mail', 'mail-check', 'message-circle'),
  ...icons('message-square', 'plus', 'rotate-ccw', 'sparkles', 'user'),
]

const CHUNKS: Record<string, ChunkModules> = {
  config: EARLY_SHARED,
  framework: EVERY_PAGE,
  query: QUERY,
  'sign-in-family': SIGN_IN_FAMILY,
  'signed-in': SIGNED_IN,
  Dashboard: DASHBOARD,
}

/** Fails the build when a chunk names a module the app no longer has (see ChunkModules). */
function everyChunkNameUsed(): Plugin {
  return {
    name: 'every-chunk-name-used',
    apply: 'build',
    generateBundle() {
      const ids = [...this.getModuleIds()].map(moduleId)
      const unused = Object.entries(CHUNKS).flatMap(([chunk, modules]) =>
        modules
          .filter((name) => !ids.some((id) => matchesModule(name, id)))
          .map((name) => `${chunk}: ${name}`),
      )
      if (unused.length > 0) throw new Error(`Chunks name modules the app does not have:\n${unused.join('\n')}`)
    },
  }
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * Writes every customer quote into the sign-in family's first paint (as the small-screen
 * AuthLayout shows it); the server keeps one at random and names it on `<html data-quote>`.
 */
function customerQuotes(): Plugin {
  return {
    name: 'customer-quotes',
    transformIndexHtml(html) {
      const figures = CUSTOMER_QUOTES.map(
        ({ quote, name, company }, index) =>
          `<figure data-quote-for="${index}" class="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-5 shadow-xs">` +
          `<blockquote class="text-sm text-ink"><p>“${escapeHtml(quote)}”</p></blockquote>` +
          `<figcaption class="text-sm text-ink-muted"><span class="font-semibold text-ink">${escapeHtml(name)}</span>, ${escapeHtml(company)}</figcaption></figure>`,
      )
      return html.replace('<!--customer-quotes-->', figures.join(''))
    },
  }
}

/**
 * The favicon goes into index.html as a data URI: on a phone's six connections a request of
 * its own would hold up the app's code (public/favicon.svg stays, for whatever asks for it).
 */
function inlineFavicon(): Plugin {
  return {
    name: 'inline-favicon',
    apply: 'build',
    transformIndexHtml(html) {
      const svg = readFileSync(new URL('./public/favicon.svg', import.meta.url), 'utf8').trim()
      const dataUri = `data:image/svg+xml,${svg.replace(/"/g, "'").replace(/[#<>]/g, encodeURIComponent)}`
      return html.replace('href="/favicon.svg"', `href="${dataUri}"`)
    },
  }
}

/** React Aria's default-locale module, by path inside the package. */
const ARIA_DEFAULT_LOCALE = /react-aria[\\/]dist[\\/]private[\\/]i18n[\\/]useDefaultLocale\.mjs$/

/**
 * The product reads in English with US dates whatever the browser's locale (spec §9), so React
 * Aria's default locale is en-US, left to right. Its own module asks Intl for the browser's
 * locale and that locale's script as the library loads: the first Intl call of the page, which
 * loads the locale data, about a tenth of a signed-in screen's first-paint scripting on a phone.
 */
function fixedAriaLocale(): Plugin {
  let replaced = false
  return {
    name: 'fixed-aria-locale',
    enforce: 'pre',
    // A React Aria release that moves the module must fail the build, not ship Intl's lookup.
    generateBundle() {
      if (!replaced) throw new Error(`No module matched ${ARIA_DEFAULT_LOCALE} to fix the locale`)
    },
    load(id) {
      if (!ARIA_DEFAULT_LOCALE.test(id.split('?')[0])) return null
      replaced = true
      return [
        "const EN_US = { locale: 'en-US', direction: 'ltr' }",
        'export function getDefaultLocale() { return EN_US }',
        'export function useDefaultLocale() { return EN_US }',
      ].join('\n')
    },
  }
}

/**
 * React Router's package exports point at its development build (dev-only warnings and checks);
 * the app ships its production build, the same API without them (about a tenth smaller).
 */
const REACT_ROUTER_PRODUCTION = fileURLToPath(
  new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
)

const ENTRY_CHUNK = /assets\/(rolldown-runtime|framework|config)-[\w-]+\.js$/

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    tailwindcss(),
    fixedAriaLocale(),
    customerQuotes(),
    inlineFavicon(),
    keepBuildMetaPrivate(),
    webManifestNamed(),
    routePreloads(),
    earlyScript(),
    everyChunkNameUsed(),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }] : []),
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:8000',
      '/dev': 'http://127.0.0.1:8000',
      '/media': 'http://127.0.0.1:8000',
    },
  },
  build: {
    target: 'es2022',
    // Maps without the sourceMappingURL comment, moved to dist-meta/ (never served).
    sourcemap: 'hidden',
    manifest: true,
    // Every browser the app supports reads <link rel="modulepreload"> itself.
    modulePreload: {
      polyfill: false,
      // The entry's own imports are loaded before any lazy screen is asked for: naming them
      // again in each screen's preload list only adds to the entry's map.
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'js' ? deps.filter((dep) => !ENTRY_CHUNK.test(dep)) : deps,
    },
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      input: { index: 'index.html', early: 'src/early.ts' },
      output: {
        // Fewer, larger chunks: what every page runs beside the entry, the sign-in family's
        // form pieces, and the query cache for the screens that use it (never /sign-in).
        codeSplitting: {
          groups: [
            { name: 'config', test: inChunk(CHUNKS.config), priority: 5 },
            { name: 'framework', test: inChunk(CHUNKS.framework), priority: 4 },
            { name: 'query', test: inChunk(CHUNKS.query), priority: 3 },
            { name: 'sign-in-family', test: inChunk(CHUNKS['sign-in-family']), priority: 2 },
            { name: 'signed-in', test: inChunk(CHUNKS['signed-in']), priority: 1 },
            { name: 'Dashboard', test: inChunk(CHUNKS.Dashboard), priority: 1 },
            // The icons two or more screens show, in one chunk rather than one each: every
            // chunk is a name in the entry's preload map, which every page downloads.
            {
              name: 'icons',
              test: /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // CSS is left out of the tests but the design tokens, which one test reads as text.
    css: { include: [/\/styles\/tokens\.css/] },
    globals: true,
    restoreMocks: true,
    testTimeout: 15_000,
    include: ['src/**/*.test.{ts,tsx}'],
    // One worker per core: Vitest's default (cores - 1) runs one at a time on a 2-core machine.
    maxWorkers: Math.max(1, availableParallelism()),
  },
}))
