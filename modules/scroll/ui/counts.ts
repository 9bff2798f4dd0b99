/** "1 follower", "2 followers", "0 echos": counts on scroll cards, the panel and the detail page. */
export const followers = (n: number) => `${n} ${n === 1 ? "follower" : "followers"}`;
export const echos = (n: number) => `${n} ${n === 1 ? "echo" : "echos"}`;
export const forks = (n: number) => `${n} ${n === 1 ? "fork" : "forks"}`;
