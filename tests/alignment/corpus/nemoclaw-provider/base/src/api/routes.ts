export const routes = {
  complete: "/v1/complete",
};
