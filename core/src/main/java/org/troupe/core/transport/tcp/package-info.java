/**
 * The TCP transport, on Netty: one authenticated connection per peer pair, heartbeats, pooled buffers.
 *
 * <h2>Parts</h2>
 * {@link org.troupe.core.transport.tcp.TcpTransport} listens and connects; each connection proves the secret in a
 * handshake ({@code FrameDecoder}, {@code HandshakeHandler}), then becomes a {@code TcpLink}, which composes four
 * parts: {@code OutboundPath} (with {@code LargeFrameWriter}) writes frames, {@code InboundFramer} cuts what is read
 * into frames and checks their tags, {@code ReadOwnership} decides who reads, {@code Liveness} sends heartbeats and
 * notices a silent peer. Every frame, the handshake's included, has the layout drawn in {@code FrameDescriptor}.
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li><b>The event loop</b> (two per transport, {@code troupe-tcp-*}; one per channel) runs the handshake, the
 *     flushes of frames queued for it ({@code OutboundPath.flushOutbound}), the reads of a readable socket
 *     ({@code DirectSocketChannel.doReadBytes} calls {@code ReadOwnership.readFromEventLoop}), the confirmation of a
 *     peer's silence, the checks of an unwatched socket ({@code watchIfNobodySpins}), and {@code channelInactive}.
 *     It never waits for room: frames it sends are queued.</li>
 *   <li><b>The caller's thread</b> writes its frame straight to the socket ({@code OutboundPath.write}) when
 *     nothing handed to Netty is unwritten and the frame is not batched; behind a burst queued for the event loop,
 *     it writes the whole queue itself (the event loop may not get a core soon); else it queues the frame and
 *     schedules a flush. A frame over {@code DIRECT_WRITE_MAX_BYTES} is written by the caller a chunk at a time
 *     ({@code LargeFrameWriter}), polling the transports while the socket is full, unless the caller is the event
 *     loop or runs a frame's handler (then Netty queues it). A caller is held back ({@code awaitRoom}) while more
 *     than {@code MAX_PENDING_BYTES} wait to leave, unless it is the event loop, runs a frame's handler, or sends a
 *     heartbeat.</li>
 *   <li><b>A spinning waiter</b> (a caller waiting for its reply, or an idle body) calls
 *     {@link org.troupe.core.spi.Progress#poll()} on every step of its spin, which reaches {@code ReadOwnership.poll}
 *     on every link of the transport: the waiter reads the socket and runs the handlers of the frames it finds
 *     itself, instead of waiting for the event loop to be scheduled.</li>
 *   <li><b>The timer</b> (one per transport, {@code troupe-heartbeats}) runs {@code Liveness.heartbeat} for every
 *     link: a ping written at once unless bytes wait to leave (so it never waits for room, and one link's full
 *     socket never delays another's heartbeat), and, when the peer has been silent for the peer timeout, a silence
 *     check queued for the event loop.</li>
 * </ul>
 *
 * <h2>Locks and flags</h2>
 * <ul>
 *   <li>{@code OutboundPath.lock} (a monitor) guards the socket's writing side: direct writes, the queue of frames
 *     for the event loop ({@code outboundFrames}), {@code flushQueued}, {@code queuedWrites}, the answers' counts
 *     ({@code AnswerFlow}) and {@code directBuffer}. {@code OutboundPath.order} (a monitor) is taken by every
 *     sender before it: it orders the frames, so a frame of up to {@code DIRECT_WRITE_MAX_BYTES} takes its place
 *     in the sequence and its tag before the lock is, and the event loop's flush does not wait for a tag.</li>
 *   <li>{@code OutboundPath.writingLarge} (volatile, set under the lock) gives the writing side to one large write
 *     without holding the lock: frames sent meanwhile queue behind it, and it flushes them when it ends.</li>
 *   <li>{@code AnswerFlow.readsHeld} (volatile, set under the lock) holds reading back while the answers that
 *     handlers sent pile up unwritten; reading resumes, with {@code autoRead} on, once half of them have left.</li>
 *   <li>{@code ReadOwnership.reading} (a {@link java.util.concurrent.locks.ReentrantLock}) is held by the one thread
 *     that reads the socket, and guards the {@code InboundFramer}. Everyone takes it with {@code tryLock}, except
 *     the handing over of the bytes that followed the handshake; a thread that holds it (a handler that waits, and
 *     so polls) does not read again inside itself. The count of handlers a thread runs is a thread-local
 *     ({@code Delivery}).</li>
 *   <li>{@code Liveness.lastHeard} (volatile) is written by whoever reads, read by the timer;
 *     {@code silenceCheckQueued} (volatile) keeps one silence check queued at a time.</li>
 * </ul>
 *
 * <h2>Read ownership hand-off</h2>
 * While a thread spins ({@link org.troupe.core.spi.Progress#someoneSpins()}), it reads the sockets itself, and an
 * event loop woken for a frame would find it read, or find {@code reading} held and be woken again and again until
 * the spinner drains the socket (the selector is level-triggered), taking a core from it. So the event loop, on
 * such a read, turns read interest off for the channel ({@code autoRead} false) and reads {@code someoneSpins()}
 * again after writing the flag, as a parking waiter reads the flag after it stops spinning: one of the two sees the
 * other, so a socket is never left unwatched with nobody spinning. Interest comes back when a waiter or a body
 * parks ({@link org.troupe.core.spi.Progress#beforePark()}, reaching {@code ReadOwnership.watchAgain}), or when a
 * check on the event loop finds that nobody has spun since the last one (first after 1 ms, then at most 32 ms
 * apart). Bytes that arrived meanwhile are picked up as soon as interest is back.
 */
package org.troupe.core.transport.tcp;
