export const suffix: string = '.md'
