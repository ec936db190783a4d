// `pnpm mock`: the stateless Prism mock of both hosts, from the bundled document, until Ctrl-C.
import { portInUse, startPrism } from "@engage-voice/test-kit/servers";

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`pnpm mock: PORT must be a port number from 1 to 65535`);
  process.exit(2);
}
if (await portInUse(port)) {
  console.error(
    `pnpm mock: port ${port} on 127.0.0.1 is in use: stop what holds it, or pick another with PORT=${port + 1} pnpm mock`,
  );
  process.exit(1);
}
// A signal that comes while Prism starts (a CI job that got its answer from the readiness probe)
// must still stop Prism: the handlers are in place before it is spawned.
let prism;
let stopRequested = false;
const stop = async () => {
  stopRequested = true;
  if (!prism) {
    return;
  }
  await prism.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
prism = await startPrism({ port, verbose: "info", stdio: "inherit" });
if (stopRequested) {
  await stop();
}
console.log(`\nPrism mock of both hosts (contact-center and deprecated login): ${prism.url}`);
console.log("Requests that break the contract answer 4xx/422 with the reason in the sl-violations header.");
console.log(
  `Pick a documented answer with a header: curl -H 'Prefer: code=401' ${prism.url}/voice/api/v1/admin/accounts -H 'Authorization: Bearer x'\n`,
);
