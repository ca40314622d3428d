/**
 * `scheme://host[:port]` of a URL, for logs and error messages: paths, queries and user info
 * often carry API keys. Text that is not a URL gives `[invalid url]` (it may be a key too).
 */
export function redactUrl(url: string | URL): string {
  try {
    const { protocol, host } = typeof url === 'string' ? new URL(url) : url
    return host ? `${protocol}//${host}` : `${protocol}//`
  } catch {
    return '[invalid url]'
  }
}
