import { act, renderHook, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { createGate } from '@/test/gate'
import { apiUrl, server } from '@/test/server'
import { useSingleFileUpload } from './useSingleFileUpload'

const STORAGE = 'https://storage.example.test/bucket'

function presignOk(key = 'uploads/abc/lease.pdf') {
  return http.post(apiUrl('/api/v1/uploads/presigned_url'), async ({ request }) => {
    const body = (await request.json()) as { upload: { filename: string } }
    return HttpResponse.json({ presigned_url: `${STORAGE}/${body.upload.filename}`, key })
  })
}

function file(name = 'lease.pdf', type = 'application/pdf') {
  return new File(['%PDF-1.4 hello'], name, { type })
}

describe('useSingleFileUpload', () => {
  it('§7 uploads: presigned address, then the raw file PUT without credentials; the key comes back', async () => {
    const seen: { body?: unknown; put?: { method: string; type: string | null } } = {}
    server.use(
      http.post(apiUrl('/api/v1/uploads/presigned_url'), async ({ request }) => {
        seen.body = await request.json()
        return HttpResponse.json({ presigned_url: `${STORAGE}/lease.pdf`, key: 'k/lease.pdf' })
      }),
      http.put(`${STORAGE}/lease.pdf`, ({ request }) => {
        seen.put = { method: request.method, type: request.headers.get('content-type') }
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const { result } = renderHook(() => useSingleFileUpload())
    expect(result.current.status).toBe('idle')
    let key: string | null = null
    await act(async () => {
      key = await result.current.start(file(), { requestId: 42 })
    })
    expect(key).toBe('k/lease.pdf')
    expect(seen.body).toEqual({ upload: { filename: 'lease.pdf', request_id: 42 } })
    expect(seen.put).toEqual({ method: 'PUT', type: 'application/pdf' })
    expect(result.current).toMatchObject({
      status: 'uploaded',
      progress: 100,
      key: 'k/lease.pdf',
      error: null,
    })
    expect(result.current.file?.name).toBe('lease.pdf')
  })

  it('§7 uploads: an unknown type is sent as application/octet-stream; no request_id unless given', async () => {
    const seen: { body?: unknown; type?: string | null } = {}
    server.use(
      http.post(apiUrl('/api/v1/uploads/presigned_url'), async ({ request }) => {
        seen.body = await request.json()
        return HttpResponse.json({ presigned_url: `${STORAGE}/notes`, key: 'k/notes' })
      }),
      http.put(`${STORAGE}/notes`, ({ request }) => {
        seen.type = request.headers.get('content-type')
        return new HttpResponse(null, { status: 200 })
      }),
    )
    const { result } = renderHook(() => useSingleFileUpload())
    await act(async () => {
      await result.current.start(file('notes', ''))
    })
    expect(seen.body).toEqual({ upload: { filename: 'notes' } })
    expect(seen.type).toBe('application/octet-stream')
    expect(result.current.status).toBe('uploaded')
  })

  it("§8 uploads: a non-2xx answer clears the file and shows 'Error uploading {file name}'", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      presignOk(),
      http.put(
        `${STORAGE}/lease.pdf`,
        () => new HttpResponse('denied', { status: 403, statusText: 'Forbidden' }),
      ),
    )
    const { result } = renderHook(() => useSingleFileUpload())
    await act(async () => {
      expect(await result.current.start(file())).toBeNull()
    })
    expect(result.current).toMatchObject({
      status: 'idle',
      file: null,
      key: null,
      error: 'Error uploading lease.pdf',
    })
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining('status 403'),
      expect.objectContaining({ status: 403, statusText: 'Forbidden', responseText: 'denied' }),
    )
  })

  it('§8 uploads: a network error shows the same message and logs connection/CORS/URL hints', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      presignOk(),
      http.put(`${STORAGE}/lease.pdf`, () => HttpResponse.error()),
    )
    const { result } = renderHook(() => useSingleFileUpload())
    await act(async () => {
      await result.current.start(file())
    })
    expect(result.current.error).toBe('Error uploading lease.pdf')
    expect(String(errors.mock.calls[0][0])).toMatch(/connection.*CORS.*URL/)
  })

  it('§8 uploads: a failed presigned-address call shows the upload error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      http.post(apiUrl('/api/v1/uploads/presigned_url'), () =>
        HttpResponse.json({ success: false, error: 'Nope' }, { status: 422 }),
      ),
    )
    const { result } = renderHook(() => useSingleFileUpload())
    await act(async () => {
      await result.current.start(file('photo.png', 'image/png'))
    })
    expect(result.current.error).toBe('Error uploading photo.png')
    expect(result.current.status).toBe('idle')
  })

  it("issue 25: storage down (503) shows the server's reason instead of the generic error", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const reason = 'File storage is unavailable right now. Please try again in a few minutes.'
    server.use(
      http.post(apiUrl('/api/v1/uploads/presigned_url'), () =>
        HttpResponse.json({ success: false, error: reason }, { status: 503 }),
      ),
    )
    const { result } = renderHook(() => useSingleFileUpload())
    await act(async () => {
      expect(await result.current.start(file())).toBeNull()
    })
    expect(result.current).toMatchObject({ status: 'idle', file: null, error: reason })
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining('(503)'),
      expect.objectContaining({ status: 503 }),
    )
  })

  it('§5 uploads: an empty upload address is refused with a console error only', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      http.post(apiUrl('/api/v1/uploads/presigned_url'), () =>
        HttpResponse.json({ presigned_url: '', key: 'k' }),
      ),
    )
    const { result } = renderHook(() => useSingleFileUpload())
    await act(async () => {
      await result.current.start(file())
    })
    expect(result.current).toMatchObject({ status: 'idle', error: null, file: null })
    expect(errors).toHaveBeenCalledTimes(1)
  })

  it("§4 file upload: 'uploading' with percent progress from the raw-body XHR, no credentials", async () => {
    server.use(presignOk('k/lease.pdf'))
    const sent: { body?: unknown; withCredentials?: boolean; method?: string; url?: string } = {}
    class FakeXhr {
      static last: FakeXhr
      upload: { onprogress: ((e: ProgressEventInit) => void) | null } = { onprogress: null }
      onload: (() => void) | null = null
      onerror: (() => void) | null = null
      onabort: (() => void) | null = null
      status = 0
      statusText = ''
      responseText = ''
      withCredentials = true
      headers: Record<string, string> = {}
      constructor() {
        FakeXhr.last = this
      }
      open(method: string, url: string) {
        sent.method = method
        sent.url = url
      }
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value
      }
      send(body: unknown) {
        sent.body = body
        sent.withCredentials = this.withCredentials
      }
      abort() {
        this.onabort?.()
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
    try {
      const { result } = renderHook(() => useSingleFileUpload())
      const chosen = file()
      let done!: Promise<string | null>
      act(() => {
        done = result.current.start(chosen)
      })
      await waitFor(() => expect(result.current.status).toBe('uploading'))
      expect(sent).toMatchObject({
        method: 'PUT',
        url: `${STORAGE}/lease.pdf`,
        withCredentials: false,
      })
      expect(sent.body).toBe(chosen)
      act(() =>
        FakeXhr.last.upload.onprogress?.({ lengthComputable: true, loaded: 42, total: 100 }),
      )
      expect(result.current.progress).toBe(42)
      FakeXhr.last.status = 201
      await act(async () => {
        FakeXhr.last.onload?.()
        expect(await done).toBe('k/lease.pdf')
      })
      expect(result.current).toMatchObject({ status: 'uploaded', progress: 100 })
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("§4 file upload: 'pending' while the address is fetched, and reset() returns to idle", async () => {
    const gate = createGate()
    server.use(
      http.post(apiUrl('/api/v1/uploads/presigned_url'), async () => {
        await gate.opened
        return HttpResponse.json({ presigned_url: `${STORAGE}/lease.pdf`, key: 'k' })
      }),
    )
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const { result } = renderHook(() => useSingleFileUpload())
    let pending!: Promise<string | null>
    act(() => {
      pending = result.current.start(file())
    })
    expect(result.current.status).toBe('pending')
    act(() => result.current.reset())
    expect(result.current.status).toBe('idle')
    gate.open()
    await act(async () => {
      expect(await pending).toBeNull()
    })
    await waitFor(() => expect(result.current.status).toBe('idle'))
  })
})
