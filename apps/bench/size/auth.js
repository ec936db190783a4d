export * from "@engage-voice/auth";
