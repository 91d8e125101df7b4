/**
 * Shared-memory links between runtimes of one host and one user ({@code troupe.core.transport=auto}, the default,
 * and {@code shm}), built on the TCP transport, which stays each link's control link.
 *
 * <h2>Setting a link up</h2>
 *
 * <ol>
 *   <li>The TCP link opens with its usual handshake; each side's flags say whether it offers shared memory (covered
 *       by the handshake's proofs, like the rest of it).
 *   <li>When both did, the connecting side makes a ring file ({@link org.troupe.core.transport.shm.RingFileLayout})
 *       in {@code <troupe.core.shmDirectory>/troupe-<uid>} (mode 0700; the file 0600) and sends an {@code Offer}
 *       on the link: its host identity (boot id, network namespace, user), the file's name and the ring size.
 *   <li>The accepting side maps the file if the identity is its own and it can open it, removes it from the
 *       directory and answers; only then does its runtime hear of the link. Refused, the link stays TCP ({@code
 *       auto}) or closes saying why ({@code shm}).
 * </ol>
 *
 * <h2>Threads</h2>
 *
 * <ul>
 *   <li>A sender writes its frame into the ring itself (one sender per link at a time), in pieces when it is larger
 *       than an eighth of the ring, then reads the reader state: if nobody on the other side polls, it rings the
 *       doorbell, a one-byte frame on the TCP link.
 *   <li>Readers: any thread of this JVM spinning in a wait polls the rings ({@code Progress.poll}); the event loop
 *       that reads the TCP link drains the ring on a doorbell. While this JVM has a spinning thread its rings say
 *       awake, so the peer does not ring; when the last one stops they say asleep and are read once more.
 *   <li>A full ring makes the sender wait: it reads this JVM's own rings meanwhile (the peer may be waiting for room
 *       the other way), spins, yields, then parks for short spells, as long as the link lives. A frame handler's
 *       send (an answer) never waits: it is queued, the peer rings when it has made room, and while too much waits
 *       the link's reading holds back.
 * </ul>
 *
 * <h2>Failures</h2>
 *
 * A peer that dies closes its TCP socket, one that freezes stops its heartbeats: either way the TCP link closes
 * (within the peer timeout), and the shared-memory link with it, after what the peer wrote before is handed over.
 * The file is unmapped once no thread reads or writes it; a file whose maker died before its peer opened it is
 * removed at the next start of a transport of this user. Frames in the rings carry no tags: only this user's
 * processes can open the directory, and they could read this process's memory anyway (docs/SECURITY.md).
 */
package org.troupe.core.transport.shm;
