fn main() {
    let name = std::env::args().nth(1).unwrap_or("busy-service".into());
    let s = sim::preset(&name).unwrap();
    let t = std::time::Instant::now();
    let mut sim = sim::Sim::new(&s).unwrap();
    sim.set_checkpoints(u64::MAX / 4, 2);
    sim.advance(u64::MAX);
    eprintln!(
        "{name}: no series {} calls in {:?}",
        sim.calls(),
        t.elapsed()
    );
    let t = std::time::Instant::now();
    let r = sim.run_to_end(100);
    eprintln!("{name}: series {} calls in {:?}", r.calls, t.elapsed());
}
