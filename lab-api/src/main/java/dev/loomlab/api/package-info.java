/**
 * The lab's HTTP contract, independent of any server: what {@code GET /api/sleep},
 * {@code POST /api/fanout} and {@code GET /api/info} accept and answer, written once for the WAR
 * ({@code app/}), CargoTracker's {@code /api/info} and every baseline (plain JDK, Helidon, Vert.x).
 * <ul>
 *   <li>parameters: {@link dev.loomlab.api.QueryParameters} (query string and integer rules),
 *       {@link dev.loomlab.api.SleepRequest}, {@link dev.loomlab.api.FanoutRequest}, their caps in
 *       {@link dev.loomlab.api.Limit}, and the 400 they raise, {@link dev.loomlab.api.BadParameterException};</li>
 *   <li>the blocking sleep itself: {@link dev.loomlab.api.Slept#block}, what every server whose request
 *       threads may block answers with (the Vert.x event loop schedules a timer instead);</li>
 *   <li>info: {@link dev.loomlab.api.ServerInfo} (every field name of {@code /api/info}),
 *       {@link dev.loomlab.api.SleepGauge}, {@link dev.loomlab.api.VirtualPoolMBeans} (the
 *       virtual-pool jar's counters over JMX), {@link dev.loomlab.api.ServerDescription};</li>
 *   <li>{@link dev.loomlab.api.Json}: a small writer, so the module needs no JSON library.</li>
 * </ul>
 * Plain Java, no dependencies: each server keeps only its adapter (the JAX-RS resources and
 * exception mapper in the WAR, {@code LabApi} for the JDK and Helidon servers, Vert.x routes).
 */
package dev.loomlab.api;
