// Client-safe public face of the auth module: schemas, constants, screens.
export { CredentialsSchema, UserNameSchema, PasswordSchema, MESSAGES, MIN_PASSWORD, MAX_USER_NAME, type Credentials, type User } from "./schema";
export { AuthForm } from "./ui/auth-form";
