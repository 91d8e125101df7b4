/**
 * The runtime's dealings with other JVMs: links to peers, the frames sent over them, and what the frames ask. Not
 * for applications. One class per job: {@link org.troupe.core.remote.Remoting} puts the others together for the
 * runtime; {@code PeerDirectory} knows the linked runtimes, {@code NodeRegistry} the nodes they registered here,
 * {@code RequestDispatcher} serves what they ask; per link, {@code Peer} sends (through {@code FrameWriter}) and
 * {@code FrameReader} reads, with {@code PendingCalls}, {@code PushedFutures} and {@code ServingLimits} as their
 * bookkeeping. The frame kinds and their layouts are in {@code Frames}.
 *
 * <h2>The path of a remote call</h2>
 *
 * A call on the proxy of an active object of another runtime, answered with a value:
 *
 * <pre>
 * caller's thread
 *   generated proxy ............... ProxyGenerator.newProxy: every method calls its CallHandler
 *   -&gt; handler ................... RemoteStubHandler.handle: the method's index, its call mode
 *   -&gt; peer ...................... Peer.call: a FutureState, kept by call id in PendingCalls
 *   -&gt; encoder ................... FrameWriter.send: kind, call id, object id, method, arguments encoded with
 *                                  the link's CodecSession (ProxyForm turns proxies into RemoteRefs)
 *   -&gt; link ...................... Link.send (the transport's, e.g. TcpLink)
 * ================================ wire ================================
 * the callee's thread reading that link
 *   -&gt; decoder ................... Remoting.received -&gt; Peer.received -&gt; FrameReader.read: the arguments
 *                                  decoded (ProxyForm makes RemoteRefs proxies again)
 *   -&gt; mailbox ................... RequestDispatcher.call: a Request, counted by ServingLimits, into
 *                                  Body.enqueue (an {@code @Immediate} method: Body.serveNow, own thread)
 * the active object's (body's) thread
 *   -&gt; generated invoker ......... Body.serve -&gt; Invoker.invoke (ProxyGenerator.invoker): the method runs
 *   -&gt; reply ..................... ReplySink (Peer.replySink) -&gt; Peer.reply: kind REPLY, call id, the value,
 *                                  through FrameWriter.send -&gt; Link.send
 * ================================ wire ================================
 * the caller's thread reading that link
 *   -&gt; decoder ................... FrameReader.read: REPLY -&gt; PendingCalls.take -&gt; FutureState.complete
 * caller's thread, which got from the handler the future proxy CallResults.of made (a FutureHandler)
 *   -&gt; future .................... touching it awaits the FutureState, complete now: the value
 * </pre>
 *
 * A one-way call has call id 0: nothing is pending and nothing is replied, unless it throws
 * ({@code ONE_WAY_FAILED}). If the link ends first, {@code Peer.closed} fails what is pending with a
 * {@code PeerFailedException}; with a call deadline, {@code CallDeadlines} fails the calls left
 * unanswered too long.
 */
package org.troupe.core.remote;
