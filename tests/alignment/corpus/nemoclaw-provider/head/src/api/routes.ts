export const routes = {
  complete: "/v1/complete",
  providers: "/v1/providers",
};
