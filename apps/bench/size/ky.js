export { default } from "ky";
