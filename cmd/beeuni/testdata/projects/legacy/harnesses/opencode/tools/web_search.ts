// an old copy
export default {}
