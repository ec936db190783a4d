/** A fetch that records each Request and answers with `respond` (no network). */
export function stubFetch(
  respond: (request: Request) => Response | Promise<Response> = () => Response.json([]),
) {
  const requests: Request[] = [];
  const fetch = async (input: Request) => {
    requests.push(input.clone());
    return respond(input);
  };
  return { fetch, requests };
}
