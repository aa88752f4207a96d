/**
 * A page's path as analytics and error reports may see it (spec §2, §8): the tokens of emailed
 * links and the ids in addresses replaced by their names, so no report carries a secret.
 */
const ANONYMISED: Array<[RegExp, string]> = [
  [/^\/reset-password\/[^/]+/, '/reset-password/:resetToken'],
  [/^\/unlock\/[^/]+/, '/unlock/:unlockToken'],
  [/^\/[^/]+\/unlock$/, '/:unlockToken/unlock'],
  [/^\/verify-email\/[^/]+/, '/verify-email/:verificationToken'],
  [/^\/change-email\/[^/]+/, '/change-email/:changeToken'],
  [/^\/rate\/[^/]+/, '/rate/:token'],
  [/^\/account\/data\/[^/]+/, '/account/data/:exportToken'],
  [/^\/requests\/category\/[^/]+/, '/requests/category/:categoryId'],
  [/^\/requests\/(?!category\/)[^/]+/, '/requests/:requestId'],
  [/^\/concierge\/requests\/[^/]+/, '/concierge/requests/:requestId'],
  [/^\/attachments\/.+/, '/attachments/:fileKey'],
]

export function anonymisedPath(path: string): string {
  for (const [pattern, replacement] of ANONYMISED) {
    if (pattern.test(path)) return path.replace(pattern, replacement)
  }
  return path
}
