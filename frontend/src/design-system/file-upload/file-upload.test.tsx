import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRef } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { FileUpload, type FileUploadHandle } from './FileUpload'
import { fileTooLargeMessage, formatFileSize, MAX_UPLOAD_BYTES } from './formatFileSize'

function makeFile(name: string, size: number, type = 'application/pdf') {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

describe('formatFileSize (pure)', () => {
  it('§9 file upload: sizes in 1024-based units with 1 decimal', () => {
    expect(formatFileSize(0)).toBe('0 Bytes')
    expect(formatFileSize(500)).toBe('500 Bytes')
    expect(formatFileSize(1024)).toBe('1 KB')
    expect(formatFileSize(1536)).toBe('1.5 KB')
    expect(formatFileSize(1_048_576)).toBe('1 MB')
    expect(formatFileSize(2_621_440)).toBe('2.5 MB')
    expect(formatFileSize(MAX_UPLOAD_BYTES)).toBe('25 MB')
    expect(formatFileSize(3 * 1024 ** 3)).toBe('3 GB')
  })

  it('§5 file upload: the too-large message names the limit', () => {
    expect(fileTooLargeMessage()).toBe('File size exceeds 25 MB, please upload a smaller file.')
    expect(fileTooLargeMessage(1024)).toBe('File size exceeds 1 KB, please upload a smaller file.')
  })
})

describe('FileUpload', () => {
  it("§4 file upload: choosing a file reports it and shows it as 'Pending' with its size", async () => {
    const onFileSelected = vi.fn()
    render(<FileUpload onFileSelected={onFileSelected} />)
    const file = makeFile('lease.pdf', 1536)
    await userEvent.upload(screen.getByLabelText('Choose a file'), file)
    expect(onFileSelected).toHaveBeenCalledWith(file)
    const item = within(screen.getByRole('list', { name: 'Selected file' })).getByRole('listitem')
    expect(item).toHaveTextContent('lease.pdf')
    expect(item).toHaveTextContent('1.5 KB')
    expect(item).toHaveTextContent('Pending')
  })

  it("§4 file upload: 'Uploading n%' with a progress bar, then 'Uploaded'", async () => {
    const { rerender } = render(<FileUpload onFileSelected={() => {}} />)
    await userEvent.upload(screen.getByLabelText('Choose a file'), makeFile('a.pdf', 10))
    rerender(<FileUpload onFileSelected={() => {}} status="uploading" progress={42} />)
    expect(screen.getByText('Uploading 42%')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Uploading a.pdf' })).toHaveAttribute(
      'aria-valuenow',
      '42',
    )
    rerender(<FileUpload onFileSelected={() => {}} status="uploaded" progress={100} />)
    expect(screen.getByText('Uploaded')).toBeInTheDocument()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
  })

  it('§5 file upload: a file over 25 MB is refused with the error box', async () => {
    const onFileSelected = vi.fn()
    render(<FileUpload onFileSelected={onFileSelected} />)
    await userEvent.upload(
      screen.getByLabelText('Choose a file'),
      makeFile('huge.mov', MAX_UPLOAD_BYTES + 1),
    )
    expect(onFileSelected).not.toHaveBeenCalled()
    expect(screen.getByRole('alert')).toHaveTextContent(
      'File size exceeds 25 MB, please upload a smaller file.',
    )
    expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument()
  })

  it('§5 file upload: exactly 25 MB is accepted', async () => {
    const onFileSelected = vi.fn()
    render(<FileUpload onFileSelected={onFileSelected} />)
    await userEvent.upload(
      screen.getByLabelText('Choose a file'),
      makeFile('max.pdf', MAX_UPLOAD_BYTES),
    )
    expect(onFileSelected).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('§4 file upload: a duplicate (same name, type, size) is ignored', async () => {
    const onFileSelected = vi.fn()
    render(<FileUpload onFileSelected={onFileSelected} />)
    const input = screen.getByLabelText('Choose a file')
    await userEvent.upload(input, makeFile('a.pdf', 100))
    await userEvent.upload(input, makeFile('a.pdf', 100))
    expect(onFileSelected).toHaveBeenCalledTimes(1)
  })

  it('§4 file upload: selecting a second file replaces the first', async () => {
    const onFileSelected = vi.fn()
    render(<FileUpload onFileSelected={onFileSelected} />)
    const input = screen.getByLabelText('Choose a file')
    await userEvent.upload(input, makeFile('a.pdf', 100))
    await userEvent.upload(input, makeFile('b.png', 200, 'image/png'))
    expect(onFileSelected).toHaveBeenCalledTimes(2)
    const list = screen.getByRole('list', { name: 'Selected file' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(1)
    expect(list).toHaveTextContent('b.png')
    expect(list).not.toHaveTextContent('a.pdf')
  })

  it('§4 file upload: on failure the selection is cleared and the error shown', async () => {
    const { rerender } = render(<FileUpload onFileSelected={() => {}} />)
    await userEvent.upload(screen.getByLabelText('Choose a file'), makeFile('a.pdf', 100))
    rerender(<FileUpload onFileSelected={() => {}} error="Error uploading a.pdf" />)
    expect(screen.getByRole('alert')).toHaveTextContent('Error uploading a.pdf')
    expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument()
  })

  it('§4 file upload: the host can reset it after success; the user can remove the file', async () => {
    const ref = createRef<FileUploadHandle>()
    const onFileRemoved = vi.fn()
    render(<FileUpload ref={ref} onFileSelected={() => {}} onFileRemoved={onFileRemoved} />)
    const input = screen.getByLabelText('Choose a file')
    await userEvent.upload(input, makeFile('a.pdf', 100))
    act(() => ref.current?.reset())
    expect(screen.queryByText('a.pdf')).not.toBeInTheDocument()
    await userEvent.upload(input, makeFile('b.pdf', 100))
    await userEvent.click(screen.getByRole('button', { name: 'Remove b.pdf' }))
    expect(screen.queryByText('b.pdf')).not.toBeInTheDocument()
    expect(onFileRemoved).toHaveBeenCalledTimes(1)
  })

  it('§5 message attachments: a validate hook refuses a file with its message', async () => {
    const onFileSelected = vi.fn()
    render(
      <FileUpload
        onFileSelected={onFileSelected}
        validate={(f) =>
          /^(image\/|application\/pdf$)/.test(f.type)
            ? null
            : `'${f.name}' has an invalid file type. Only images or PDFs are allowed.`
        }
      />,
    )
    await userEvent.upload(
      screen.getByLabelText('Choose a file'),
      makeFile('notes.txt', 10, 'text/plain'),
    )
    expect(onFileSelected).not.toHaveBeenCalled()
    expect(screen.getByRole('alert')).toHaveTextContent(
      "'notes.txt' has an invalid file type. Only images or PDFs are allowed.",
    )
  })

  it('§2 file upload: keyboard accessible — the file input is reachable with Tab', async () => {
    render(<FileUpload onFileSelected={() => {}} label="Attach a file" />)
    await userEvent.tab()
    expect(screen.getByLabelText('Attach a file')).toHaveFocus()
  })
})

describe('FileUpload: compact, preview and select (issue 10)', () => {
  it('an image shows a thumbnail preview before it is sent; a PDF its icon', async () => {
    const createObjectURL = vi.fn(() => 'blob:photo')
    const revokeObjectURL = vi.fn()
    Object.assign(URL, { createObjectURL, revokeObjectURL })
    const ref = createRef<FileUploadHandle>()
    const onFileSelected = vi.fn()
    const { container } = render(
      <FileUpload
        ref={ref}
        variant="compact"
        label="Attach a file"
        trailing={<button type="submit">Send</button>}
        onFileSelected={onFileSelected}
      />,
    )
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument()
    expect(screen.getByLabelText('Attach a file')).toHaveAccessibleDescription(
      'One file, up to 25 MB',
    )
    const photo = makeFile('photo.png', 2048, 'image/png')
    act(() => ref.current?.select(photo))
    expect(onFileSelected).toHaveBeenCalledWith(photo)
    const selected = screen.getByRole('list', { name: 'Selected file' })
    expect(within(selected).getByText('2 KB')).toBeInTheDocument()
    expect(container.querySelector('img[data-preview]')).toHaveAttribute('src', 'blob:photo')

    act(() => ref.current?.select(makeFile('lease.pdf', 1024)))
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:photo')
    expect(container.querySelector('img[data-preview]')).toBeNull()
    expect(within(selected).getByText('lease.pdf')).toBeInTheDocument()
  })

  it('select() applies the same checks as choosing: too large is refused', () => {
    const ref = createRef<FileUploadHandle>()
    const onFileSelected = vi.fn()
    render(<FileUpload ref={ref} variant="compact" onFileSelected={onFileSelected} />)
    act(() => ref.current?.select(makeFile('huge.pdf', MAX_UPLOAD_BYTES + 1)))
    expect(onFileSelected).not.toHaveBeenCalled()
    expect(screen.getByRole('alert')).toHaveTextContent(fileTooLargeMessage())
  })
})
