fn main() {
    let name = std::env::args().nth(1).unwrap_or("recovery-warmup".into());
    let s = sim::preset(&name).unwrap();
    let t = std::time::Instant::now();
    let r = sim::run(&s, 20).unwrap();
    eprintln!("{name}: {} calls in {:?}", r.calls, t.elapsed());
    for k in sim::BreakerKind::ALL {
        let b = r.breakers.get(k);
        println!("{} {:?}\n  {:?}", k.as_str(), b.metrics, b.totals);
        for e in b.events.iter().take(30) {
            println!(
                "  {:>10.3} {} -> {} g{} {}",
                e.t_s, e.from, e.to, e.generation, e.reason
            );
        }
        if b.events.len() > 30 {
            println!("  ... {} events", b.events.len());
        }
    }
    println!("{}", sim::trace_hash(&r));
}
