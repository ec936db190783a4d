// The OpenTelemetry entry alone: what an app that imports it adds beside the main entry. Its peer,
// @opentelemetry/api, is left out of the weight (.size-limit.ts `ignore`): the app has it already.

export * from "@engage-voice/auth/opentelemetry";
