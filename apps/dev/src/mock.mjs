// `pnpm mock`: the stateless Prism mock of both hosts, from the bundled document, until Ctrl-C.
import { chosenPort, stopOnSignals } from "@engage-voice/test-kit/processes";
import { startPrism } from "@engage-voice/test-kit/servers";

const port = await chosenPort("PORT", "pnpm mock", 4010);
// Before Prism is spawned: a signal that comes while it starts (a CI job that got its answer from the
// readiness probe) must still stop it.
const stops = stopOnSignals();
const prism = await startPrism({ port, verbose: "info", stdio: "inherit" });
stops.add(() => prism.stop());
stops.ready();
console.log(`\nPrism mock of both hosts (contact-center and deprecated login): ${prism.url}`);
console.log("Requests that break the contract answer 4xx/422 with the reason in the sl-violations header.");
console.log(
  `Pick a documented answer with a header: curl -H 'Prefer: code=401' ${prism.url}/voice/api/v1/admin/accounts -H 'Authorization: Bearer x'\n`,
);
