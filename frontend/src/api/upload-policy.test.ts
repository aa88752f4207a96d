import { ATTACHMENT_ACCEPT, isAllowedAttachment } from './upload-policy'

describe('the message attachment allowlist (generated from the server’s list)', () => {
  it('Issue 11 Smaller: the picker offers the server’s types, not every image', () => {
    expect(ATTACHMENT_ACCEPT.split(',')).toEqual(
      expect.arrayContaining(['image/png', 'image/jpeg', 'application/pdf', '.pdf']),
    )
    expect(ATTACHMENT_ACCEPT).not.toContain('image/*')
    expect(ATTACHMENT_ACCEPT.toLowerCase()).not.toContain('heic')
  })

  it('§5 Message attachments: a HEIC photo is refused before it is uploaded', () => {
    expect(isAllowedAttachment({ name: 'IMG_0001.HEIC', type: 'image/heic' })).toBe(false)
    expect(isAllowedAttachment({ name: 'IMG_0001.HEIC', type: '' })).toBe(false)
  })

  it('§5 Message attachments: images and PDFs pass, by type or by name', () => {
    expect(isAllowedAttachment({ name: 'rex.png', type: 'image/png' })).toBe(true)
    expect(isAllowedAttachment({ name: 'lease.PDF', type: '' })).toBe(true)
    expect(isAllowedAttachment({ name: 'notes.docx', type: 'application/msword' })).toBe(false)
  })
})
