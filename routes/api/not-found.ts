import { errorResponse } from "~/modules/shared/index";

const notFound = () => errorResponse(404, "No such API route");
export const loader = notFound;
export const action = notFound;
