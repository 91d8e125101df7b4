package org.troupe.core.service;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of an active class as an immediate service: a call to it does not wait in the request queue but
 * runs at once, concurrently with the request the body is serving, and the caller waits for its result. Use it for
 * cheap queries and for control (a progress query, a stop flag) that must not wait behind long requests; such
 * methods must be thread-safe.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Immediate {}
