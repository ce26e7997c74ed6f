export const config = {
  port: 8080,
    debug: false,
    name: 'old',
}
