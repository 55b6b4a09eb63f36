print("loadgen")
