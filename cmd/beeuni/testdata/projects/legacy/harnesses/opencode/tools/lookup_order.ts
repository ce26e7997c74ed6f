// the team's own
export default {}
