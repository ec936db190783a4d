export function plainEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
