export * from "@engage-voice/auth";
export * from "@engage-voice/client";
