/// <reference types="vitest/config" />
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

/** Build outputs for tooling (the size budget, error reporting), kept out of the served dist/. */
const BUILD_META_DIR = fileURLToPath(new URL('./dist-meta', import.meta.url))

/** Moves the source maps and the manifest out of the served folder once the bundle is written. */
function keepBuildMetaPrivate(): Plugin {
  return {
    name: 'keep-build-meta-private',
    apply: 'build',
    writeBundle(options) {
      const outDir = options.dir ?? 'dist'
      rmSync(BUILD_META_DIR, { recursive: true, force: true })
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
      for (const file of files) {
        if (!file.endsWith('.map') && file !== join('.vite', 'manifest.json')) continue
        const target = join(BUILD_META_DIR, file.replace(/^\.vite[\\/]/, ''))
        mkdirSync(dirname(target), { recursive: true })
        renameSync(join(outDir, file), target)
      }
      rmSync(join(outDir, '.vite'), { recursive: true, force: true })
    },
  }
}

export default defineConfig({
  plugins: [react(), tailwindcss(), keepBuildMetaPrivate()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
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
    chunkSizeWarningLimit: 400,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    globals: true,
    restoreMocks: true,
    testTimeout: 15_000,
    include: ['src/**/*.test.{ts,tsx}'],
  },
})
