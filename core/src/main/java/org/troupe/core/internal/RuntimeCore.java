package org.troupe.core.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.instrument.RuntimeMeters;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.serialization.SerializationConfig;

/**
 * This JVM's runtime behind the API: its nodes (by name), the bodies of its active objects, their names, and
 * making objects active. What reaches other JVMs is the API's to wire in; this class knows nothing of it but the
 * address the runtime listens at, for the names of its objects. Thread-safe.
 */
public final class RuntimeCore implements LocalRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeCore.class);
    /** How long shutting down waits for active objects busy in a method. */
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

    private final String id;
    private final RuntimeSettings settings;
    /** What may cross between runtimes (and be copied here): the settings' classes and the layers' own. */
    private final SerializationConfig wireConfig;

    private final Copier copier;
    /** Where the runtime listens ({@code host:port}), or "" if it does not: part of its objects' names. */
    private final Supplier<String> address;

    private final Set<String> nodes = ConcurrentHashMap.newKeySet();
    private final Bodies bodies = new Bodies();
    private final Map<String, Object> registry = new ConcurrentHashMap<>();
    private final Set<Class<?>> modesReported = ConcurrentHashMap.newKeySet();
    private volatile boolean running = true;
    private final RuntimeMeters meters;

    public RuntimeCore(
            final String id,
            final RuntimeSettings settings,
            final SerializationConfig wireConfig,
            final String defaultNode,
            final Supplier<String> address) {
        this.id = id;
        this.settings = settings;
        this.wireConfig = wireConfig;
        this.copier = new Copier(wireConfig);
        this.address = address;
        nodes.add(defaultNode);
        this.meters = new RuntimeMeters(settings.metrics(), this::activeObjectCount, id, this::nodeNames);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public RuntimeMeters meters() {
        return meters;
    }

    @Override
    public RuntimeSettings settings() {
        return settings;
    }

    @Override
    public SerializationConfig wireConfig() {
        return wireConfig;
    }

    @Override
    public Body body(final long objectId) {
        return bodies.get(objectId);
    }

    @Override
    public Object registered(final String name) {
        return registry.get(name);
    }

    public boolean isRunning() {
        return running;
    }

    public void checkRunning() {
        if (!running) {
            throw new TerminatedException("Runtime " + id + " has been shut down");
        }
    }

    // --- Nodes ---

    /** Adds a node; names are unique within the runtime. */
    public void addNode(final String name) {
        checkRunning();
        if (name == null || name.isBlank() || name.contains("/")) {
            throw new IllegalArgumentException("A node name must be non-empty and without '/', got '" + name + "'");
        }
        if (!nodes.add(name)) {
            throw new IllegalArgumentException("Node " + name + " exists already in runtime " + id);
        }
    }

    public boolean hasNode(final String name) {
        return nodes.contains(name);
    }

    /** Fails unless this runtime has a node called {@code name}. */
    public void checkNode(final String name) {
        if (!nodes.contains(name)) {
            throw new TroupeException("Runtime " + id + " has no node called " + name + " (it has " + nodes + ")");
        }
    }

    public List<String> nodeNames() {
        return List.copyOf(nodes);
    }

    /** Active objects alive in this runtime. */
    public int activeObjectCount() {
        return bodies.size();
    }

    // --- Active objects ---

    /** Creates the object a peer asked for, if its class is allowed here and on this JVM's class path. */
    @Override
    public Object newActive(final String className, final Object[] args, final String nodeName) {
        if (!wireConfig.allowsClassName(className)) {
            throw new TroupeException("A peer asked to create a " + className + ", which is not allowed here; "
                    + wireConfig.howToAllow(className));
        }
        checkNode(nodeName);
        final Class<?> type;
        try {
            type = Class.forName(className, false, RuntimeCore.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new TroupeException("Class " + className + " is not on the class path of runtime " + id, e);
        }
        return newActive(type, args, nodeName);
    }

    /**
     * Checks, before an object of {@code type} is made active here or elsewhere, that this runtime runs and that
     * the class can be active; reports its call modes the first time.
     */
    public void checkCanActivate(final Class<?> type) {
        checkRunning();
        checkActivatable(type);
        checkConstructible(type);
        reportModes(type);
    }

    /** Creates an active object of {@code type} on this runtime's node {@code nodeName}, which must exist. */
    public <T> T newActive(final Class<T> type, final Object[] args, final String nodeName) {
        checkCanActivate(type);
        final Object[] copied = copier.copyArguments(args == null ? new Object[0] : args);
        final T object;
        try {
            object = type.cast(Constructors.matching(type, copied).newInstance(copied));
        } catch (InvocationTargetException e) {
            throw new TroupeException("The constructor of " + type.getName() + " threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new TroupeException("Cannot create a " + type.getName() + ": " + e, e);
        }
        return activate(type, object, nodeName);
    }

    /** Makes {@code object} active on this runtime's node {@code nodeName}, which must exist. */
    public <T> T turnActive(final T object, final String nodeName) {
        checkRunning();
        @SuppressWarnings("unchecked")
        final Class<T> type = (Class<T>) object.getClass();
        checkActivatable(type);
        reportModes(type);
        return activate(type, object, nodeName);
    }

    private <T> T activate(final Class<T> type, final T object, final String nodeName) {
        final long objectId = bodies.nextId();
        final String where = address.get();
        final String name =
                type.getSimpleName() + "#" + objectId + "@troupe://" + (where.isEmpty() ? id : where) + "/" + nodeName;
        final Body body = new Body(
                objectId,
                object,
                settings.spinNanos(),
                copier,
                meters.object(nodeName, type),
                () -> bodies.remove(objectId));
        final T proxy = ProxyGenerator.newProxy(
                type, new StubHandler(body, nodeName, copier, settings.spinNanos(), settings.synchronousCalls()));
        bodies.add(body);
        body.start(name, proxy);
        return proxy;
    }

    /** Fails unless an object of {@code type} can be active: its proxy is a subclass. */
    private static void checkActivatable(final Class<?> type) {
        if (!ProxyGenerator.canProxy(type) || type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException(type.getName() + " cannot be an active object: its class must be"
                    + " concrete and neither final nor sealed (its proxy is a subclass)");
        }
    }

    /**
     * Fails unless Troupe can call a public constructor of {@code type} from its own package, as {@code newActive}
     * does: said here, before anything is sent, rather than by an IllegalAccessException from the constructor.
     */
    private static void checkConstructible(final Class<?> type) {
        final String cannot = type.getName() + " cannot be an active object: ";
        if (type.isLocalClass() || type.isAnonymousClass()) {
            throw new IllegalArgumentException(cannot + "a local or anonymous class has no constructor Troupe can"
                    + " call; declare it as a public top-level class or a public static nested class");
        }
        if (type.isMemberClass() && !Modifier.isStatic(type.getModifiers())) {
            throw new IllegalArgumentException(
                    cannot + "an inner class needs an instance of its enclosing class;" + " declare it static");
        }
        if (!Modifier.isPublic(type.getModifiers())) {
            throw new IllegalArgumentException(
                    cannot + "its class must be public (Troupe calls its constructor" + " from another package)");
        }
        final Module core = RuntimeCore.class.getModule();
        if (!type.getModule().isExported(type.getPackageName(), core)) {
            throw new IllegalArgumentException(cannot + "its package is not exported to " + core.getName()
                    + "; add 'exports " + type.getPackageName() + " to " + core.getName() + ";' (or 'opens')"
                    + " to module " + type.getModule().getName());
        }
    }

    private void reportModes(final Class<?> type) {
        if (modesReported.add(type)) {
            CallModes.report(type);
        }
    }

    /** The body of an active object of this JVM, from its proxy; fails for anything else. */
    public static Body bodyOf(final Object active) {
        if (ProxyGenerator.handlerOf(active) instanceof StubHandler s) {
            return s.body();
        }
        throw new IllegalArgumentException(
                (active == null ? "null" : "A " + active.getClass().getName())
                        + " is not an active object (a proxy returned by ActiveObjects)");
    }

    /** The proxy of the active object whose own thread calls this, or null. */
    public static Object currentActiveObject() {
        final Body body = Body.current();
        return body == null ? null : body.proxy();
    }

    // --- Names ---

    public void register(final Object active, final String name) {
        checkRunning();
        bodyOf(active);
        if (registry.putIfAbsent(name, active) != null) {
            throw new IllegalArgumentException("The name " + name + " is taken in runtime " + id);
        }
    }

    /** The active object registered here as {@code name}; fails if there is none, or it is no {@code T}. */
    public <T> T lookup(final Class<T> type, final String name) {
        final Object found = registry.get(name);
        if (found == null) {
            throw new TroupeException("No active object is registered as " + name + " in runtime " + id
                    + " (registered: " + registry.keySet() + ")");
        }
        if (!type.isInstance(found)) {
            throw new TroupeException(
                    name + " is a " + bodyOf(found).target().getClass().getName() + ", not a " + type.getName());
        }
        return type.cast(found);
    }

    /** Ends an active object of this runtime, and forgets its names. */
    public void terminate(final Object active) {
        final Body body = bodyOf(active);
        registry.values().removeIf(o -> o == active);
        body.terminate();
    }

    // --- Shutdown ---

    /**
     * Marks the runtime shut down (new work is refused from now on); returns false if it was already. The caller
     * then calls {@link #terminateAll()}.
     */
    public boolean stop() {
        if (!running) {
            return false;
        }
        running = false;
        return true;
    }

    /** Terminates every active object, waits a bounded time for them to end, and forgets their names. */
    public void terminateAll() {
        // A body busy in application code cannot be stopped; wait a bounded time, then say which ones are stuck.
        final List<String> stuck = bodies.terminateAll(SHUTDOWN_WAIT);
        if (!stuck.isEmpty()) {
            LOG.warn(
                    "Runtime {} shut down while {} active objects were still busy in a method: {}",
                    id,
                    stuck.size(),
                    stuck.size() > 10 ? stuck.subList(0, 10) + " ..." : stuck);
        }
        registry.clear();
    }
}
