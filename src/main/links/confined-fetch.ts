/**
 * `fetch` that sends nothing beyond the origin of a link's `apiBaseUrl`. The API credential
 * rides on every request a provider's client makes, and those clients follow URLs the provider
 * answers with (a pagination `Link` header, a `next_page_url`): a token given for one host must
 * never be handed to another because an answer named it.
 */
export function confinedFetch(apiBaseUrl: string, send: typeof fetch): typeof fetch {
  const allowed = new URL(apiBaseUrl).origin;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== allowed) {
      return Promise.reject(
        new Error(
          `refused to send the link's API token to ${url.origin}: the link's apiBaseUrl is ${allowed}, and its token goes nowhere else`,
        ),
      );
    }
    return send(input, init);
  };
}
