// `@engage-voice/fake-hosts`: the hosts as the sandbox, with faults on top (see README.md).
export { ACCOUNTS, createSandboxApps } from "@engage-voice/sandbox/app";
export {
  BASE,
  type Endpoint,
  type FakeServer,
  type Fault,
  fakeServer,
  LEGACY_BASE,
  LEGACY_USER,
  PARENT_TOKEN,
  PARENT_USER,
  type ServerOptions,
} from "./hosts.js";
export { fakeHosts, HOSTED_TENANT, type HostedOptions, type HostsOptions } from "./managers.js";
