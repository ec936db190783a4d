export * from "@engage-voice/client";
