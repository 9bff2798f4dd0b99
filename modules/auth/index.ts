// Client-safe public face of the auth module: schemas, constants, screens.
export {
  CredentialsSchema,
  LoginSchema,
  UserNameSchema,
  PasswordSchema,
  MESSAGES,
  MIN_PASSWORD,
  MAX_USER_NAME,
  ACCOUNT_MESSAGES,
  ChangePasswordSchema,
  DeleteAccountSchema,
  type Credentials,
  type ChangePassword,
  type User,
} from "./schema";
export { AuthForm } from "./ui/auth-form";
export { ChangePasswordForm, DeleteAccountForm } from "./ui/account-settings";
