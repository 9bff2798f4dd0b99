import { useState } from "react";
import { Link } from "react-router";
import type { PersonHit } from "../schema";
import { useFollowToggle } from "./use-follow-toggle";

/**
 * People found by /search (issue 29): each with their bio and a Follow / Unfollow button (not on
 * oneself), as a reader deciding whom to follow needs them; the name links to the profile.
 */
export function PeopleList({ people, heading, headingId }: { people: PersonHit[]; heading: string; headingId: string }) {
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <ul className="people-list">
        {people.map((person) => (
          <Person key={person._id} person={person} />
        ))}
      </ul>
    </section>
  );
}

function Person({ person }: { person: PersonHit }) {
  const [following, setFollowing] = useState(person.isFollowing);
  const { working, toggle } = useFollowToggle(person._id, following, (next) => setFollowing(next.isFollowing));

  return (
    <li className="person">
      <div className="person-text">
        <Link to={`/user/${person._id}`}>
          @<bdi>{person.userName}</bdi>
        </Link>
        <p className={person.bio ? "person-bio" : "person-bio muted"} dir="auto">
          {person.bio || "No bio available"}
        </p>
      </div>
      {!person.isMe && (
        <button
          type="button"
          className={following ? "btn btn-sm" : "btn btn-sm btn-primary"}
          aria-label={`${following ? "Unfollow" : "Follow"} @${person.userName}`}
          disabled={working}
          onClick={toggle}
        >
          {following ? "Unfollow" : "Follow"}
        </button>
      )}
    </li>
  );
}
