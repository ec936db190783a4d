export * from "ofetch";
